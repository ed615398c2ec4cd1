import { describe, expect, it } from 'vitest';
import { retryAfterMs, retryDelay, withRetries, type RetryEvent } from '../../../src/models/retry.js';

const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it("reads OpenAI's retry-after-ms first, then Retry-After as seconds or an HTTP date", () => {
    expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
    expect(retryAfterMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(retryAfterMs({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }, now)).toBe(0);
  });

  it('is null without a readable header', () => {
    expect(retryAfterMs(undefined)).toBeNull();
    expect(retryAfterMs({})).toBeNull();
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeNull();
    expect(retryAfterMs({ 'retry-after-ms': '-5' })).toBeNull();
  });
});

describe('retryDelay', () => {
  it('doubles from the base with ±25 % jitter and never passes the cap', () => {
    for (let i = 0; i < 50; i++) {
      const first = retryDelay(1, policy, null);
      const third = retryDelay(3, policy, null);
      expect(first).toBeGreaterThanOrEqual(75);
      expect(first).toBeLessThanOrEqual(125);
      expect(third).toBeGreaterThanOrEqual(300);
      expect(third).toBeLessThanOrEqual(500);
      expect(retryDelay(10, policy, null)).toBeLessThanOrEqual(1000);
    }
  });

  it("uses the server's wait exactly, within the cap", () => {
    expect(retryDelay(1, policy, 40)).toBe(40);
    expect(retryDelay(1, policy, 3_600_000)).toBe(1000);
  });
});

describe('withRetries', () => {
  const fast = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 };

  it('retries what the classifier allows, up to maxRetries, then rethrows the last failure', async () => {
    const events: RetryEvent[] = [];
    let calls = 0;
    const run = withRetries(
      async (n) => {
        calls++;
        throw new Error(`failure ${n}`);
      },
      fast,
      () => ({ retry: true }),
      { onRetry: (e) => events.push(e) },
    );
    await expect(run).rejects.toThrow('failure 3');
    expect(calls).toBe(3);
    expect(events.map((e) => e.attempt)).toEqual([1, 2]);
  });

  it('stops at a final failure and returns the first success', async () => {
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new Error('final');
        },
        fast,
        () => ({ retry: false }),
      ),
    ).rejects.toThrow('final');
    expect(calls).toBe(1);
    await expect(
      withRetries(
        async (n) => (n < 2 ? Promise.reject(new Error('x')) : 'ok'),
        fast,
        () => ({ retry: true }),
      ),
    ).resolves.toBe('ok');
  });

  it("stops waiting when the signal aborts, with the signal's reason", async () => {
    const controller = new AbortController();
    const run = withRetries(
      async () => {
        throw new Error('busy');
      },
      { maxRetries: 5, baseDelayMs: 60_000, maxDelayMs: 60_000 },
      () => ({ retry: true }),
      { signal: controller.signal, onRetry: () => controller.abort(new Error('caller gave up')) },
    );
    await expect(run).rejects.toThrow('caller gave up');
  });
});
