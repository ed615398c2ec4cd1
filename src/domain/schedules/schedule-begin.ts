import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, type Row } from '../../db/sql.js';
import type { ClaimedJob, NewJob } from '../../workers/queue/job-kind.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import { dueTimesAfter } from './schedule-due.js';
import { FIRE_KIND, fireJobId, scheduleOf, scheduleRunOf, type FirePayload } from './schedule-rows.js';
import type { Schedule, ScheduleRun } from './schedule.entity.js';
import { newRunId } from './schedule.service.js';

/** A firing that is to make its call now: the schedule as the firing left it, and its run. */
export interface Begun {
  schedule: Schedule;
  run: ScheduleRun;
}

/** What one job of a group comes to once its schedule and due run are read. */
type Decision =
  | { kind: 'lost' } // the lease is gone: not ours to write
  | { kind: 'done' } // nothing to fire (deleted, already run, a due time no longer due)
  | { kind: 'again'; schedule: Schedule; run: ScheduleRun } // a worker died mid-call: call again
  | { kind: 'new'; schedule: Schedule; runId: string; missed: number; next: Date | null };

/**
 * Begins the firings of a group of `schedule.fire` jobs in the caller's transaction, with a
 * fixed number of statements whatever the group's size: checks the leases (locking the jobs),
 * locks the schedules in id order (a delete waits for the run to be recorded, or the run never
 * starts), inserts the new runs, takes over the runs a dead worker left, moves the schedules to
 * their next due time, queues those due times' jobs, and completes the jobs with nothing to
 * fire. One result per job, in order: null when it has no call to make.
 */
export async function beginFirings(
  em: EntityManager,
  queue: JobQueue,
  jobs: readonly ClaimedJob<FirePayload>[],
  now: Date,
): Promise<(Begun | null)[]> {
  const held = await queue.holdsAll(em, jobs);
  const decisions = await decide(
    em,
    jobs.filter((job) => held.has(job.id)),
    now,
  );
  const inserted = await insertRuns(em, jobs, decisions);
  const again = await takeOver(em, jobs, decisions);
  const fresh: Begun[] = [];
  const results = jobs.map((job): Begun | null => {
    const decision = decisions.get(job.id) ?? { kind: 'lost' };
    if (decision.kind === 'again') return { schedule: decision.schedule, run: again.get(job.id)! };
    if (decision.kind !== 'new') return null;
    const run = inserted.get(decision.runId);
    if (!run) return null; // the due time has a run after all: nothing to fire
    const begun = { schedule: { ...decision.schedule, nextRunAt: decision.next, lastRunId: run.id }, run };
    fresh.push(begun);
    return begun;
  });
  await moveOn(em, queue, fresh);
  const nothing = jobs.filter((job, i) => held.has(job.id) && results[i] === null);
  await queue.completeAll(em, nothing);
  return results;
}

/** Reads each held job's schedule (locked, in id order) and its due time's run; decides. */
async function decide(
  em: EntityManager,
  jobs: readonly ClaimedJob<FirePayload>[],
  now: Date,
): Promise<Map<string, Decision>> {
  const decisions = new Map<string, Decision>(jobs.map((job) => [job.id, { kind: 'done' }]));
  if (jobs.length === 0) return decisions;
  const rows = await exec(
    em,
    `select f.fire_job_id, s.*, to_jsonb(r.*) as due_run
     from jsonb_to_recordset(?::jsonb) as f(fire_job_id text, schedule_id text, due timestamptz)
     join schedules s on s.id = f.schedule_id
     left join schedule_runs r on r.schedule_id = s.id and r.scheduled_for = f.due
     where s.id in (?) order by s.id for update of s`,
    [
      JSON.stringify(jobs.map((j) => ({ fire_job_id: j.id, schedule_id: j.payload.scheduleId, due: j.payload.due }))),
      jobs.map((j) => j.payload.scheduleId),
    ],
  );
  const byId = new Map(jobs.map((job) => [job.id, job]));
  for (const row of rows) {
    const job = byId.get(row.fire_job_id as string)!;
    decisions.set(job.id, decideOne(scheduleOf(row), row.due_run as Row | null, new Date(job.payload.due), now));
  }
  return decisions;
}

function decideOne(schedule: Schedule, dueRun: Row | null, due: Date, now: Date): Decision {
  if (dueRun) {
    const run = scheduleRunOf(dueRun);
    // A worker died during this run's call: this attempt makes it again.
    return run.status === 'running' ? { kind: 'again', schedule, run } : { kind: 'done' };
  }
  // Deleted, or a due time the schedule no longer has: nothing to fire.
  if (schedule.state !== 'ENABLED' || schedule.nextRunAt?.getTime() !== due.getTime()) return { kind: 'done' };
  const { missed, next } = dueTimesAfter(schedule, due, now);
  return { kind: 'new', schedule, runId: newRunId(), missed, next };
}

/** One insert for every new run; the runs inserted, by id (a due time already run is skipped). */
async function insertRuns(
  em: EntityManager,
  jobs: readonly ClaimedJob<FirePayload>[],
  decisions: Map<string, Decision>,
): Promise<Map<string, ScheduleRun>> {
  const rows = jobs.flatMap((job) => {
    const d = decisions.get(job.id);
    if (d?.kind !== 'new') return [];
    const { schedule, runId, missed } = d;
    return [
      {
        id: runId,
        schedule_id: schedule.id,
        team_id: schedule.teamId,
        due: job.payload.due,
        attempts: job.attempts,
        missed,
      },
    ];
  });
  if (rows.length === 0) return new Map();
  const inserted = await exec(
    em,
    `insert into schedule_runs (id, schedule_id, team_id, scheduled_for, started_at, status, attempts, missed_runs)
     select n.id, n.schedule_id, n.team_id, n.due, clock_timestamp(), 'running', n.attempts, n.missed
     from jsonb_to_recordset(?::jsonb) as n(id text, schedule_id text, team_id text, due timestamptz, attempts int, missed int)
     on conflict (schedule_id, scheduled_for) do nothing returning *`,
    [JSON.stringify(rows)],
  );
  return new Map(inserted.map((r) => [r.id as string, scheduleRunOf(r)]));
}

/** One update for every run taken over: this attempt's number, and a new start. By job id. */
async function takeOver(
  em: EntityManager,
  jobs: readonly ClaimedJob<FirePayload>[],
  decisions: Map<string, Decision>,
): Promise<Map<string, ScheduleRun>> {
  const runJob = new Map<string, string>();
  const rows = jobs.flatMap((job) => {
    const d = decisions.get(job.id);
    if (d?.kind !== 'again') return [];
    runJob.set(d.run.id, job.id);
    return [{ id: d.run.id, attempts: job.attempts }];
  });
  if (rows.length === 0) return new Map();
  const updated = await exec(
    em,
    `update schedule_runs r set attempts = t.attempts, started_at = clock_timestamp()
     from jsonb_to_recordset(?::jsonb) as t(id text, attempts int) where r.id = t.id and r.id in (?) returning r.*`,
    [JSON.stringify(rows), rows.map((r) => r.id)],
  );
  return new Map(updated.map((r) => [runJob.get(r.id as string)!, scheduleRunOf(r)]));
}

/** One update moving the schedules that fire to their next due time, and one insert queueing those due times. */
async function moveOn(em: EntityManager, queue: JobQueue, fired: readonly Begun[]): Promise<void> {
  if (fired.length === 0) return;
  await exec(
    em,
    `update schedules s set next_run_at = u.next_run_at, last_run_id = u.run_id, runs_count = s.runs_count + 1
     from jsonb_to_recordset(?::jsonb) as u(id text, next_run_at timestamptz, run_id text)
     where s.id = u.id and s.id in (?)`,
    [
      JSON.stringify(
        fired.map((b) => ({
          id: b.schedule.id,
          next_run_at: b.schedule.nextRunAt?.toISOString() ?? null,
          run_id: b.run.id,
        })),
      ),
      fired.map((b) => b.schedule.id),
    ],
  );
  const next: NewJob[] = fired.flatMap(({ schedule }) =>
    schedule.nextRunAt
      ? [
          {
            id: fireJobId(schedule.id, schedule.nextRunAt),
            kind: FIRE_KIND,
            teamId: schedule.teamId,
            payload: { scheduleId: schedule.id, due: schedule.nextRunAt.toISOString() },
            runAt: schedule.nextRunAt,
          },
        ]
      : [],
  );
  await queue.enqueue(next, em);
}
