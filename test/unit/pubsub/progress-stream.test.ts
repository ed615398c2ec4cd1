import { describe, expect, it } from 'vitest';
import { progressStream } from '../../../src/pubsub/progress-stream.js';

interface State {
  status: string;
  done: number;
}

async function* from(events: State[]): AsyncGenerator<State> {
  yield* events;
}

async function collect(current: State, events: State[]): Promise<State[]> {
  const out: State[] = [];
  for await (const state of progressStream(current, from(events), (s) => s.done)) out.push(state);
  return out;
}

const progress = (done: number, status = 'in_progress'): State => ({ status, done });

describe('progressStream', () => {
  it('passes on the state read first, then only events that move it on, until one ends it', async () => {
    // Queued before the state was read (1, 2), published out of order (4 before 3), repeated (4).
    const seen = await collect(progress(2), [
      progress(1),
      progress(2),
      progress(4),
      progress(3),
      progress(4),
      progress(5),
      progress(5, 'completed'),
      progress(6),
    ]);
    expect(seen).toEqual([progress(2), progress(4), progress(5), progress(5, 'completed')]);
  });

  it('ends at once when the state read first has ended', async () => {
    expect(await collect(progress(3, 'completed'), [progress(4)])).toEqual([progress(3, 'completed')]);
  });

  it('passes on a change of status even without progress', async () => {
    expect(await collect(progress(0), [progress(0, 'cancelled')])).toEqual([progress(0), progress(0, 'cancelled')]);
  });
});
