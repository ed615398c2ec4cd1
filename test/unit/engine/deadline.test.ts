import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDeadline } from '../../../src/engine/deadline.js';
import { AppError } from '../../../src/errors.js';

describe('createDeadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts when the budget runs out, and explains failures as a 504', () => {
    const deadline = createDeadline(1000);
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.expired).toBe(true);
    const explained = deadline.explain(new Error('socket closed'), 'the model did not answer');
    expect(explained).toBeInstanceOf(AppError);
    expect(explained).toMatchObject({ status: 504, detail: 'the model did not answer within 1000 ms' });
    deadline.dispose();
  });

  it('starts the budget again on restart, so a stream that keeps delivering runs on', () => {
    const deadline = createDeadline(1000);
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(800);
      deadline.restart();
    }
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(deadline.expired).toBe(true);
    deadline.restart();
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  it("gives the caller's reason when the caller aborts", () => {
    const parent = new AbortController();
    const deadline = createDeadline(1000, parent.signal);
    vi.advanceTimersByTime(500);
    parent.abort(new Error('client went away'));
    deadline.restart();
    expect(deadline.signal.reason).toMatchObject({ message: 'client went away' });
    expect(deadline.explain(new Error('aborted'), 'x')).toMatchObject({ message: 'client went away' });
    deadline.dispose();
  });
});
