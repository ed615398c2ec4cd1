import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOrm, type Orm } from '../../../src/db/orm.js';
import { exec } from '../../../src/db/sql.js';
import type { JobKindSpec } from '../../../src/workers/queue/job-kind.js';
import { JobQueue } from '../../../src/workers/queue/job-queue.js';
import { LeaseConnection } from '../../../src/workers/queue/lease-connection.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';
import { TEST_KIND } from '../../support/queue-kind.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let db: TestDatabase;
let orm: Orm;
const failures: { id: string; code: string }[] = [];
const FAILING: JobKindSpec = {
  kind: 'test.failing',
  maxAttempts: 2,
  leaseMs: 500,
  backoff: () => 0,
  onFailed: async (em, job, error) => {
    await exec(em, 'select 1'); // runs in the failing transaction
    failures.push({ id: job.id, code: error.code });
    return `failed ${job.id}`;
  },
};
let queue: JobQueue;

beforeAll(async () => {
  db = await createTestDatabase();
  orm = await createOrm({ connection: db.url, poolSize: 8 });
  queue = new JobQueue(orm, [TEST_KIND, FAILING]);
});
afterAll(async () => {
  await orm?.close(true);
  await db?.drop();
});
beforeEach(async () => {
  await exec(orm.em.fork(), 'delete from jobs');
  failures.length = 0;
});

const rows = () =>
  exec<{ id: string; status: string; attempts: number; lease_owner: string | null }>(
    orm.em.fork(),
    'select id, status, attempts, lease_owner from jobs order by seq',
  );
const expire = (ids: string[]) =>
  exec(orm.em.fork(), `update jobs set lease_expires_at = now() - interval '1 second' where id in (?)`, [ids]);

describe('JobQueue', () => {
  it('queues a job id once: the id is the unique key', async () => {
    expect(
      await queue.enqueue([
        { id: 'a', kind: 'test.job' },
        { id: 'b', kind: 'test.job' },
      ]),
    ).toBe(2);
    expect(await queue.enqueue([{ id: 'a', kind: 'test.job', payload: { again: true } }])).toBe(0);
    expect((await rows()).map((r) => r.id)).toEqual(['a', 'b']);
    await expect(queue.enqueue([{ id: 'c', kind: 'nope' }])).rejects.toThrow(/unknown job kind "nope"/);
  });

  it('claims by priority, then due time, then the order queued; never before run_at', async () => {
    const later = new Date(Date.now() + 60_000);
    await queue.enqueue([
      { id: 'first', kind: 'test.job' },
      { id: 'second', kind: 'test.job' },
      { id: 'urgent', kind: 'test.job', priority: 5 },
      { id: 'later', kind: 'test.job', runAt: later },
    ]);
    const claimed = await queue.claim('test.job', 'w1', 10);
    expect(claimed.map((j) => j.id)).toEqual(['urgent', 'first', 'second']);
    expect(claimed[0]).toMatchObject({ kind: 'test.job', attempts: 1, maxAttempts: 3, owner: 'w1' });
    expect(await queue.claim('test.job', 'w2', 10)).toEqual([]);
  });

  it('runs at most concurrencyLimit jobs per key at once', async () => {
    await queue.enqueue([
      ...['a1', 'a2', 'a3'].map((id) => ({ id, kind: 'test.job', concurrencyKey: 'a.example' })),
      ...['b1', 'b2'].map((id) => ({ id, kind: 'test.job', concurrencyKey: 'b.example' })),
      { id: 'free', kind: 'test.job' },
    ]);
    const first = await queue.claim('test.job', 'w1', 10);
    expect(first.map((j) => j.id).sort()).toEqual(['a1', 'a2', 'b1', 'b2', 'free']);
    expect(await queue.claim('test.job', 'w2', 10)).toEqual([]);
    await queue.transaction((em) =>
      queue.complete(
        em,
        first.find((j) => j.id === 'a1')!,
      ),
    );
    expect((await queue.claim('test.job', 'w2', 10)).map((j) => j.id)).toEqual(['a3']);
  });

  it('renews leases it holds and reports those it lost', async () => {
    await queue.enqueue([
      { id: 'a', kind: 'test.job' },
      { id: 'b', kind: 'test.job' },
    ]);
    const [a, b] = await queue.claim('test.job', 'w1', 2);
    await exec(orm.em.fork(), `update jobs set lease_owner = 'w2' where id = 'b'`);
    expect(await queue.heartbeat('w1', [a!, b!])).toEqual(['b']);
  });

  it('renews the leases of unlocked rows at once, and a row another transaction holds once it is free', async () => {
    await queue.enqueue([
      { id: 'a', kind: 'test.job' },
      { id: 'b', kind: 'test.job' },
    ]);
    const [a, b] = await queue.claim('test.job', 'w1', 2);
    // An hour left: a renewal (to the kind's half second) shows.
    await exec(orm.em.fork(), `update jobs set lease_expires_at = now() + interval '1 hour'`);
    const leftOf = async (id: string) =>
      Number(
        (
          await exec<{ left: number }>(
            orm.em.fork(),
            'select extract(epoch from lease_expires_at - now()) as left from jobs where id = ?',
            [id],
          )
        )[0]!.left,
      );
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const inside = new Promise<void>((resolve) => (started = resolve));
    const locking = orm.em.fork().transactional(async (em) => {
      await exec(em, `select id from jobs where id = 'b' for update`);
      started();
      await held;
    });
    await inside;
    const beat = queue.heartbeat('w1', [a!, b!]);
    await expect.poll(() => leftOf('a'), { timeout: 5000 }).toBeLessThan(60); // renewed while b is locked
    expect(await leftOf('b')).toBeGreaterThan(3000);
    release();
    await locking;
    expect(await beat).toEqual([]);
    expect(await leftOf('b')).toBeLessThan(60);
  });

  it('renews leases on its own connection while every pooled connection is busy', async () => {
    const small = await createOrm({ connection: db.url, poolSize: 1 });
    const leases = new LeaseConnection(db.url);
    const LONG: JobKindSpec = { ...TEST_KIND, kind: 'test.long', leaseMs: 60_000 };
    const own = new JobQueue(small, [LONG], { leases });
    try {
      await own.enqueue([{ id: 'a', kind: 'test.long' }]);
      const [a] = await own.claim('test.long', 'w1', 1);
      await exec(orm.em.fork(), `update jobs set lease_expires_at = now() + interval '1 second' where id = 'a'`);
      // The pool's only connection is held by a transaction until the heartbeat has answered.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const inside = new Promise<void>((resolve) => (started = resolve));
      const busy = small.em.fork().transactional(async (em) => {
        await exec(em, 'select 1');
        started();
        await held;
      });
      await inside;
      expect(await own.heartbeat('w1', [a!])).toEqual([]);
      release();
      await busy;
      const [row] = await exec<{ left: number }>(
        orm.em.fork(),
        `select extract(epoch from lease_expires_at - now()) as left from jobs where id = 'a'`,
      );
      expect(Number(row!.left)).toBeGreaterThan(55); // renewed to 60 s from the 1 s left
    } finally {
      await leases.close();
      await small.close(true);
    }
  });

  it('returns expired leases to the queue, and a job finished by its old holder is refused', async () => {
    await queue.enqueue([{ id: 'a', kind: 'test.job' }]);
    const [job] = await queue.claim('test.job', 'w1', 1);
    expect(await queue.reap()).toEqual({ requeued: 0, failed: 0 });
    await expire(['a']);
    expect(await queue.reap()).toEqual({ requeued: 1, failed: 0 });
    const [again] = await queue.claim('test.job', 'w2', 1);
    expect(again).toMatchObject({ id: 'a', attempts: 2, owner: 'w2' });
    expect(await queue.transaction((em) => queue.complete(em, job!))).toBe(false);
    expect(await queue.transaction((em) => queue.complete(em, again!))).toBe(true);
    expect(await rows()).toEqual([{ id: 'a', status: 'completed', attempts: 2, lease_owner: null }]);
  });

  it('cancels queued and running jobs; a cancelled job is never claimed, renewed or recorded by its worker', async () => {
    await queue.enqueue(['a', 'b', 'c', 'd'].map((id) => ({ id, kind: 'test.job' })));
    const [a, b] = await queue.claim('test.job', 'w1', 2);
    await queue.transaction((em) => queue.complete(em, b!));
    const cancelled = await queue.transaction((em) => queue.cancel(em, ['a', 'b', 'c', 'x']));
    expect(cancelled.sort()).toEqual(['a', 'c']); // b had ended, x does not exist
    expect(await queue.transaction((em) => queue.cancel(em, ['a', 'c']))).toEqual([]); // again: nothing left
    expect(await queue.heartbeat('w1', [a!])).toEqual(['a']); // its worker learns at its next renewal
    expect(await queue.transaction((em) => queue.complete(em, a!))).toBe(false);
    expect(await queue.transaction((em) => queue.retry(em, a!, { code: 'x', message: 'x' }, 0))).toBe(false);
    expect(await queue.transaction((em) => queue.fail(em, 'a', 'w1', { code: 'x', message: 'x' }))).toBeNull();
    expect((await queue.claim('test.job', 'w2', 4)).map((j) => j.id)).toEqual(['d']);
    expect(await rows()).toEqual([
      { id: 'a', status: 'cancelled', attempts: 1, lease_owner: null },
      { id: 'b', status: 'completed', attempts: 1, lease_owner: null },
      { id: 'c', status: 'cancelled', attempts: 0, lease_owner: null },
      { id: 'd', status: 'running', attempts: 1, lease_owner: 'w2' },
    ]);
  });

  it('a cancel waits for a worker recording its job, and leaves the job as the worker ended it', async () => {
    await queue.enqueue([{ id: 'a', kind: 'test.job' }]);
    const [a] = await queue.claim('test.job', 'w1', 1);
    let release!: () => void;
    const recorded = queue.transaction(async (em) => {
      const done = await queue.complete(em, a!);
      await new Promise<void>((resolve) => (release = resolve));
      return done;
    });
    await until('the worker holds its row', async () => release !== undefined);
    const cancel = queue.transaction((em) => queue.cancel(em, ['a']));
    await new Promise((r) => setTimeout(r, 100));
    release();
    expect(await recorded).toBe(true);
    expect(await cancel).toEqual([]);
    expect((await rows())[0]!.status).toBe('completed');
  });

  it('holdsAll and completeAll take only the jobs whose lease their owner still holds', async () => {
    await queue.enqueue(['a', 'b', 'c', 'd'].map((id) => ({ id, kind: 'test.job' })));
    const claimed = await queue.claim('test.job', 'w1', 4);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => claimed.find((j) => j.id === id)!);
    await exec(orm.em.fork(), `update jobs set lease_owner = 'w2' where id = 'b'`);
    await expire(['c']);
    const gone = { ...d!, owner: 'w9' };
    expect(await queue.transaction((em) => queue.holdsAll(em, [a!, b!, c!, gone]))).toEqual(new Set(['a']));
    // completeAll asks for the owner only (an expired lease nobody took back is still its holder's).
    expect(await queue.transaction((em) => queue.completeAll(em, [a!, b!, c!, gone]))).toEqual(new Set(['a', 'c']));
    expect(await queue.transaction((em) => queue.completeAll(em, [a!, d!]))).toEqual(new Set(['d']));
    expect((await rows()).map((r) => `${r.id}:${r.status}`)).toEqual([
      'a:completed',
      'b:running',
      'c:completed',
      'd:completed',
    ]);
  });

  it('holdsAll locks the rows it returns until its transaction ends', async () => {
    await queue.enqueue([{ id: 'a', kind: 'test.job' }]);
    const [a] = await queue.claim('test.job', 'w1', 1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const inside = new Promise<void>((resolve) => (locked = resolve));
    const holder = queue.transaction(async (em) => {
      expect(await queue.holdsAll(em, [a!])).toEqual(new Set(['a']));
      locked();
      await held;
    });
    await inside;
    let completed = false;
    const completing = queue.transaction((em) => queue.complete(em, a!)).then((done) => (completed = done));
    await new Promise((r) => setTimeout(r, 300));
    expect(completed).toBe(false);
    release();
    await holder;
    await completing;
    expect(completed).toBe(true);
  });

  it('fails a job whose lease expired on its last attempt, running its kind hook in the same transaction', async () => {
    await queue.enqueue([{ id: 'x', kind: 'test.failing' }]);
    await queue.claim('test.failing', 'w1', 1);
    await expire(['x']);
    await queue.reap();
    await queue.claim('test.failing', 'w2', 1);
    await expire(['x']);
    expect(await queue.reap()).toEqual({ requeued: 0, failed: 1 });
    expect(failures).toEqual([{ id: 'x', code: 'worker_lost' }]);
    const [row] = await exec(orm.em.fork(), `select status, error_code from jobs where id = 'x'`);
    expect(row).toEqual({ status: 'failed', error_code: 'worker_lost' });
  });

  it('retries with a delay, and fails for good returning what the hook returned', async () => {
    await queue.enqueue([{ id: 'r', kind: 'test.failing' }]);
    const [job] = await queue.claim('test.failing', 'w1', 1);
    expect(await queue.transaction((em) => queue.retry(em, job!, { code: 'e', message: 'm' }, 60_000))).toBe(true);
    expect(await queue.claim('test.failing', 'w1', 1)).toEqual([]);
    await exec(orm.em.fork(), `update jobs set run_at = now() where id = 'r'`);
    const [again] = await queue.claim('test.failing', 'w1', 1);
    const failed = await queue.transaction((em) => queue.fail(em, again!.id, 'w1', { code: 'gone', message: 'x' }));
    expect(failed).toEqual({ outcome: 'failed r' });
    expect(await queue.transaction((em) => queue.fail(em, again!.id, 'w1', { code: 'gone', message: 'x' }))).toBeNull();
  });

  it('gives jobs back on release without counting the attempt, and restarts finished ones', async () => {
    await queue.enqueue([{ id: 'a', kind: 'test.job' }]);
    const [job] = await queue.claim('test.job', 'w1', 1);
    expect(await queue.transaction((em) => queue.restart(em, { id: 'a', kind: 'test.job' }))).toBe(false);
    await queue.release('w1', [job!.id]);
    expect(await rows()).toEqual([{ id: 'a', status: 'queued', attempts: 0, lease_owner: null }]);
    const [again] = await queue.claim('test.job', 'w1', 1);
    await queue.transaction((em) => queue.complete(em, again!));
    expect(await queue.transaction((em) => queue.restart(em, { id: 'a', kind: 'test.job' }))).toBe(true);
    expect(await rows()).toEqual([{ id: 'a', status: 'queued', attempts: 0, lease_owner: null }]);
  });

  it('says which kinds have work within a horizon, and counts per kind', async () => {
    expect(await queue.pendingKinds(1000)).toEqual(new Set());
    await queue.enqueue([{ id: 'soon', kind: 'test.job', runAt: new Date(Date.now() + 60_000) }]);
    expect(await queue.pendingKinds(1000)).toEqual(new Set());
    expect(await queue.pendingKinds(120_000)).toEqual(new Set(['test.job']));
    await queue.enqueue([{ id: 'now', kind: 'test.failing' }]);
    expect(await queue.pendingKinds(0)).toEqual(new Set(['test.failing']));
    await queue.claim('test.failing', 'w1', 1);
    const figures = await queue.figures();
    expect(figures).toEqual([
      { kind: 'test.failing', queued: 0, due: 0, running: 1, failed: 0, oldestDueSeconds: 0 },
      { kind: 'test.job', queued: 1, due: 0, running: 0, failed: 0, oldestDueSeconds: 0 },
    ]);
  });

  it('purges finished jobs past their keeping time (cancelled ones with the completed)', async () => {
    await queue.enqueue([
      { id: 'a', kind: 'test.job' },
      { id: 'b', kind: 'test.job' },
    ]);
    for (const job of await queue.claim('test.job', 'w1', 2)) {
      await queue.transaction((em) => queue.complete(em, job));
    }
    await queue.enqueue([{ id: 'c', kind: 'test.job' }]);
    await queue.transaction((em) => queue.cancel(em, ['c']));
    expect(await queue.purge(new Date(Date.now() - 60_000), new Date(Date.now() - 60_000))).toBe(0);
    expect(await queue.purge(new Date(Date.now() + 1000), new Date())).toBe(3);
  });
});

interface Child {
  exited: Promise<void>;
  output: () => string;
  stop(): void;
}

function startChild(args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/queue-child.ts', db.url, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { exited, output: () => out, stop: () => void child.kill('SIGTERM') };
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('JobQueue across processes', { timeout: 240_000 }, () => {
  it('two processes run every job once and never more than two per key at once', async () => {
    const keys = ['a.example', 'b.example', 'c.example'];
    await queue.enqueue(
      Array.from({ length: 120 }, (_, i) => ({ id: `j${i}`, kind: 'test.job', concurrencyKey: keys[i % 3]! })),
    );
    const children = [startChild(['p1', 'work', '20']), startChild(['p2', 'work', '20'])];
    try {
      await until('every job is done', async () => (await rows()).every((r) => r.status === 'completed'));
    } finally {
      for (const child of children) child.stop();
      await Promise.all(children.map((c) => c.exited));
    }
    const done = await exec<{ key: string; started: Date; finished: Date; owner: string; attempts: number }>(
      orm.em.fork(),
      `select concurrency_key as key, started_at as started, finished_at as finished, attempts from jobs`,
    );
    expect(done).toHaveLength(120);
    expect(done.every((j) => j.attempts === 1)).toBe(true);
    // The claim and the completion timestamps bracket each run: at no instant did a key run thrice.
    for (const key of keys) {
      const events = done
        .filter((j) => j.key === key)
        .flatMap((j) => [
          { t: new Date(j.started).getTime(), d: 1 },
          { t: new Date(j.finished).getTime(), d: -1 },
        ])
        .sort((x, y) => x.t - y.t || x.d - y.d);
      let running = 0;
      let most = 0;
      for (const e of events) most = Math.max(most, (running += e.d));
      expect(most, key).toBeLessThanOrEqual(2);
      expect(most, key).toBeGreaterThan(0);
    }
  });

  it('jobs of a process that died holding them are run by another once their lease expires', async () => {
    await queue.enqueue(Array.from({ length: 6 }, (_, i) => ({ id: `d${i}`, kind: 'test.job' })));
    const dying = startChild(['p1', 'die', '6']);
    await dying.exited;
    expect(dying.output()).toContain('claimed 6');
    expect((await rows()).every((r) => r.status === 'running' && r.lease_owner === 'p1')).toBe(true);
    const survivor = startChild(['p2', 'work', '5']);
    try {
      await until('the survivor finished them', async () => (await rows()).every((r) => r.status === 'completed'));
    } finally {
      survivor.stop();
      await survivor.exited;
    }
    expect((await rows()).every((r) => r.attempts === 2)).toBe(true);
  });
});
