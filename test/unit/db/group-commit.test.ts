import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../src/db/group-commit.js';

/** A GroupCommit over a `run` that records its groups and waits until told to finish each. */
function recording(options: { windowMs: number; maxSize: number; maxInFlight: number }) {
  const groups: number[][] = [];
  const gates: (() => void)[] = [];
  const commit = new GroupCommit<number, string>(async (items) => {
    groups.push(items);
    await new Promise<void>((resolve) => gates.push(resolve));
    if (items.includes(-1)) throw new Error('group failed');
    return items.map((n) => `done ${n}`);
  }, options);
  const openAll = async () => {
    while (gates.length > 0) gates.shift()!();
    await new Promise((r) => setTimeout(r, 5));
  };
  return { commit, groups, gates, openAll };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('GroupCommit', () => {
  it('runs items submitted in one turn of the event loop as one group, each getting its own result', async () => {
    const { commit, groups, openAll } = recording({ windowMs: 0, maxSize: 100, maxInFlight: 2 });
    const results = [1, 2, 3].map((n) => commit.submit(n));
    await tick();
    expect(groups).toEqual([[1, 2, 3]]);
    await openAll();
    expect(await Promise.all(results)).toEqual(['done 1', 'done 2', 'done 3']);
  });

  it('splits at maxSize and, past maxInFlight groups, collects the next group until one ends', async () => {
    const { commit, groups, openAll } = recording({ windowMs: 0, maxSize: 2, maxInFlight: 1 });
    const results = [1, 2, 3, 4, 5].map((n) => commit.submit(n));
    await tick();
    expect(groups).toEqual([[1, 2]]);
    const later = [6, 7].map((n) => commit.submit(n));
    await tick();
    expect(groups).toEqual([[1, 2]]);
    for (let i = 0; i < 4; i++) await openAll();
    expect(groups).toEqual([[1, 2], [3, 4], [5, 6], [7]]);
    expect(await Promise.all([...results, ...later])).toHaveLength(7);
  });

  it('waits windowMs for more items before a group runs', async () => {
    const { commit, groups, openAll } = recording({ windowMs: 30, maxSize: 100, maxInFlight: 1 });
    const first = commit.submit(1);
    await new Promise((r) => setTimeout(r, 10));
    const second = commit.submit(2);
    expect(groups).toEqual([]);
    await new Promise((r) => setTimeout(r, 40));
    expect(groups).toEqual([[1, 2]]);
    await openAll();
    expect(await Promise.all([first, second])).toEqual(['done 1', 'done 2']);
  });

  it('runs a group whose run throws again item by item: only the bad item fails', async () => {
    const { commit, groups, openAll } = recording({ windowMs: 0, maxSize: 2, maxInFlight: 1 });
    const outcome = (n: number) => commit.submit(n).catch((err: Error) => err.message);
    const results = [outcome(1), outcome(-1), outcome(3)];
    await tick();
    for (let i = 0; i < 3; i++) await openAll();
    expect(await Promise.all(results)).toEqual(['done 1', 'group failed', 'done 3']);
    expect(groups).toEqual([[1, -1], [1], [-1], [3]]);
  });
});
