import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Container } from '../../src/container.js';
import type { Actor } from '../../src/domain/auth/actor.js';
import { beginFirings } from '../../src/domain/schedules/schedule-begin.js';
import type { CallOutcome } from '../../src/domain/schedules/schedule-caller.js';
import { finishFirings } from '../../src/domain/schedules/schedule-finish.js';
import { FIRE_KIND, type FirePayload } from '../../src/domain/schedules/schedule-rows.js';
import type { ClaimedJob } from '../../src/workers/queue/job-kind.js';
import type { JobQueue } from '../../src/workers/queue/job-queue.js';
import { startApiContainer, type ApiContainer } from '../support/api-container.js';

// Firings begun and recorded many per transaction (beginFirings, finishFirings) on the
// Postgres server, step by step without workers: each firing of a group comes to what it
// would have alone — a deleted schedule, a lost lease, a run taken over and the same
// schedule's next due time side by side — and a delete waits for a group's runs to be recorded.

let harness: ApiContainer;
let sql: ApiContainer['sql'];
let api: Container;
let queue: JobQueue;
let actor: Actor;
const OK: CallOutcome = { ok: true, httpStatus: 200, error: null, resourceId: null, excerpt: 'ok\u0000ay' };

beforeAll(async () => {
  harness = await startApiContainer('schedule-groups');
  ({ api, actor, sql } = harness);
  queue = api.queue;
}, 120_000);

afterAll(() => harness?.close());

/** A recurring schedule (every minute; nothing calls it here); its id. */
async function everyMinute(): Promise<string> {
  const s = await api.services.schedules.create(actor, {
    method: 'GET',
    endpoint: 'http://127.0.0.1:9/tick',
    cron_expression: '* * * * ? *',
    expression_timezone: 'UTC',
  });
  return s.id;
}

/** Makes these schedules' queued firings due now and claims them for `owner`. */
async function claimFirings(scheduleIds: string[], owner = 'w1'): Promise<ClaimedJob<FirePayload>[]> {
  await sql(`update jobs set run_at = now() where kind = ? and status = 'queued' and payload->>'scheduleId' in (?)`, [
    FIRE_KIND,
    scheduleIds,
  ]);
  return queue.claim<FirePayload>(FIRE_KIND, owner, 100);
}

const begin = (jobs: ClaimedJob<FirePayload>[]) => queue.transaction((em) => beginFirings(em, queue, jobs, new Date()));
const jobStatus = async (id: string) =>
  (await sql<{ status: string }>('select status from jobs where id = ?', [id]))[0]?.status;
const runsOf = (scheduleId: string) =>
  sql<{ scheduled_for: string; status: string; attempts: number; response_excerpt: string | null }>(
    'select scheduled_for, status, attempts, response_excerpt from schedule_runs where schedule_id = ? order by scheduled_for',
    [scheduleId],
  );

describe('schedule firings in groups', () => {
  it('a group fires each due time as alone: deleted, lease lost, taken over and next due side by side', async () => {
    const [fires, deleted, lost, crashed] = [
      await everyMinute(),
      await everyMinute(),
      await everyMinute(),
      await everyMinute(),
    ];
    // `crashed` began its run on a worker that died: the lease expires, the job comes back (attempt 2).
    const [first] = await claimFirings([crashed]);
    const [crashedRun] = await begin([first!]);
    expect(crashedRun?.run.attempts).toBe(1);
    await sql(`update jobs set lease_expires_at = now() - interval '1 second' where id = ?`, [first!.id]);
    await queue.reap([FIRE_KIND]);

    const jobs = await claimFirings([fires, deleted, lost, crashed]);
    expect(jobs).toHaveLength(5); // crashed twice: the due time taken over and the next one it queued
    const byId = (id: string, attempts = 1) =>
      jobs.find((j) => j.payload.scheduleId === id && j.attempts === attempts)!;
    await api.services.schedules.delete(actor, deleted); // after the claim: its job runs, finds it deleted
    await sql(`update jobs set lease_owner = 'w2' where id = ?`, [byId(lost).id]);
    const order = [byId(fires), byId(deleted), byId(lost), byId(crashed, 2), byId(crashed)];
    const begun = await begin(order);

    expect(
      begun.map((b) => (b ? `${b.schedule.id === crashed ? 'crashed' : 'fires'}:${b.run.attempts}` : null)),
    ).toEqual(['fires:1', null, null, 'crashed:2', 'crashed:1']);
    expect(begun[4]!.run.scheduledFor.getTime()).toBe(begun[3]!.run.scheduledFor.getTime() + 60_000);
    expect(await jobStatus(byId(deleted).id)).toBe('completed');
    expect(await jobStatus(byId(lost).id)).toBe('running'); // w2's: untouched
    expect(await runsOf(deleted)).toEqual([]);
    expect(await runsOf(lost)).toEqual([]);
    expect((await runsOf(crashed)).map((r) => `${r.status}:${r.attempts}`)).toEqual(['running:2', 'running:1']);
    // Each schedule that fired moved to its next due time and queued it, once.
    for (const b of [begun[0]!, begun[4]!]) {
      const [s] = await sql<{ next_run_at: string; runs_count: number; last_run_id: string }>(
        'select next_run_at, runs_count, last_run_id from schedules where id = ?',
        [b.schedule.id],
      );
      const next = new Date(s!.next_run_at);
      expect(next.getTime()).toBe(b.run.scheduledFor.getTime() + 60_000);
      expect(s!.last_run_id).toBe(b.run.id);
      expect(await jobStatus(`${b.schedule.id}:${next.toISOString()}`)).toBe('queued');
    }
    expect(
      (await sql<{ runs_count: number }>('select runs_count from schedules where id = ?', [crashed]))[0]!.runs_count,
    ).toBe(2);

    // Recording: a call whose lease was lost meanwhile is not recorded (its next attempt takes it over).
    await sql(`update jobs set lease_owner = 'w3' where id = ?`, [byId(crashed).id]);
    const calls = [0, 3, 4].map((i) => ({
      job: order[i]!,
      scheduleId: begun[i]!.schedule.id,
      runId: begun[i]!.run.id,
      outcome: OK,
    }));
    const finished = await queue.transaction((em) => finishFirings(em, calls));
    expect(finished.map((f) => f?.run.status ?? null)).toEqual(['succeeded', 'succeeded', null]);
    expect(finished[0]!.run.responseExcerpt).toBe('okay'); // a NUL cannot be stored in text: dropped
    expect((await runsOf(crashed)).map((r) => `${r.status}:${r.attempts}`)).toEqual(['succeeded:2', 'running:1']);
    expect(await jobStatus(byId(crashed, 2).id)).toBe('completed');
    expect(await jobStatus(byId(crashed).id)).toBe('running');
  });

  it('a one-time schedule whose run a group records ends DELETED', async () => {
    const s = await api.services.schedules.create(actor, {
      method: 'GET',
      endpoint: 'http://127.0.0.1:9/tick',
      execute_at: new Date(Date.now() + 60_000).toISOString(),
    });
    const jobs = await claimFirings([s.id]);
    const [b] = await begin(jobs);
    expect(b!.schedule.nextRunAt).toBeNull();
    expect(
      await sql('select id from jobs where kind = ? and status = ? and payload->>? = ?', [
        FIRE_KIND,
        'queued',
        'scheduleId',
        s.id,
      ]),
    ).toEqual([]);
    const [f] = await queue.transaction((em) =>
      finishFirings(em, [{ job: jobs[0]!, scheduleId: s.id, runId: b!.run.id, outcome: OK }]),
    );
    expect(f!.schedule.state).toBe('DELETED');
    expect((await api.services.schedules.get(actor, s.id)).state).toBe('DELETED');
  });

  it('recording runs leaves a schedule that goes on unwritten, and reads the state a delete left', async () => {
    const [on, gone] = [await everyMinute(), await everyMinute()];
    const jobs = await claimFirings([on, gone]);
    const begun = await begin(jobs);
    const version = async (id: string) =>
      (await sql<{ v: string }>('select xmin::text as v from schedules where id = ?', [id]))[0]!.v;
    const before = await version(on);
    await api.services.schedules.delete(actor, gone); // while its call is under way
    const calls = jobs.map((job, i) => ({
      job,
      scheduleId: begun[i]!.schedule.id,
      runId: begun[i]!.run.id,
      outcome: OK,
    }));
    const finished = await queue.transaction((em) => finishFirings(em, calls));
    expect(await version(on)).toBe(before);
    const stateOf = new Map(finished.map((f) => [f!.schedule.id, f!.schedule.state]));
    expect(Object.fromEntries([on, gone].map((id) => [id === on ? 'on' : 'gone', stateOf.get(id)]))).toEqual({
      on: 'ENABLED',
      gone: 'DELETED',
    });
    expect(finished.map((f) => f!.run.status)).toEqual(['succeeded', 'succeeded']);
  });

  it('a delete during a group waits for its runs to be recorded, then removes the next due time', async () => {
    const [a, b] = [await everyMinute(), await everyMinute()];
    const jobs = await claimFirings([a, b]);
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const begunInside = new Promise<void>((resolve) => (inside = resolve));
    const group = queue.transaction(async (em) => {
      const begun = await beginFirings(em, queue, jobs, new Date());
      inside();
      await hold; // the schedules stay locked until this transaction ends
      return begun;
    });
    await begunInside;
    let deletedAt = 0;
    const deleting = api.services.schedules.delete(actor, b).then(() => (deletedAt = Date.now()));
    await new Promise((r) => setTimeout(r, 300));
    expect(deletedAt).toBe(0);
    const committedAt = Date.now();
    release();
    const begun = await group;
    await deleting;
    expect(deletedAt).toBeGreaterThanOrEqual(committedAt);
    expect(begun.every((x) => x !== null)).toBe(true);
    expect((await runsOf(b)).map((r) => r.status)).toEqual(['running']); // recorded before the delete
    const [row] = await sql<{ state: string; next_run_at: Date | null }>(
      'select state, next_run_at from schedules where id = ?',
      [b],
    );
    expect(row).toEqual({ state: 'DELETED', next_run_at: null });
    // The next due time the group queued for b is gone with it; a's stays.
    const queued = await sql<{ sid: string }>(
      `select payload->>'scheduleId' as sid from jobs where kind = ? and status = 'queued' and payload->>'scheduleId' in (?)`,
      [FIRE_KIND, [a, b]],
    );
    expect(queued).toEqual([{ sid: a }]);
  });
});
