import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, type Row } from '../../db/sql.js';
import type { ClaimedJob, NewJob } from '../../workers/queue/job-kind.js';
import { COMPLETE_ALL_CTES, ENQUEUE_SQL, ownedParams } from '../../workers/queue/job-claim.js';
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
 * Begins the firings of a group of `schedule.fire` jobs in the caller's transaction, in three
 * statements whatever the group's size (the lease check, the locking read, and every write in
 * one, `write`): checks the leases (locking the jobs),
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
  const { inserted, again } = await write(em, queue, jobs, held, decisions);
  return jobs.map((job): Begun | null => {
    const decision = decisions.get(job.id) ?? { kind: 'lost' };
    if (decision.kind === 'again') return { schedule: decision.schedule, run: again.get(decision.run.id)! };
    if (decision.kind !== 'new') return null;
    const run = inserted.get(decision.runId)!;
    return { schedule: { ...decision.schedule, nextRunAt: decision.next, lastRunId: run.id }, run };
  });
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

/**
 * Every write of a group's begin in one statement: the new runs, the runs taken over (this
 * attempt's number, a new start), the schedules that fire moved to their next due time and those
 * due times' jobs queued, and the jobs with nothing to fire completed. A new run cannot meet one
 * already there (the schedule is locked and its due run was read); if it did, the transaction
 * fails and the group is begun again firing by firing.
 */
async function write(
  em: EntityManager,
  queue: JobQueue,
  jobs: readonly ClaimedJob<FirePayload>[],
  held: ReadonlySet<string>,
  decisions: Map<string, Decision>,
): Promise<{ inserted: Map<string, ScheduleRun>; again: Map<string, ScheduleRun> }> {
  const fresh: { job: ClaimedJob<FirePayload>; d: Extract<Decision, { kind: 'new' }> }[] = [];
  const taken: { id: string; attempts: number }[] = [];
  const nothing: ClaimedJob<FirePayload>[] = [];
  for (const job of jobs) {
    const d = decisions.get(job.id);
    if (d?.kind === 'new') fresh.push({ job, d });
    else if (d?.kind === 'again') taken.push({ id: d.run.id, attempts: job.attempts });
    else if (held.has(job.id)) nothing.push(job);
  }
  const ctes: string[] = [];
  const params: unknown[] = [];
  const results: string[] = [];
  if (fresh.length > 0) {
    const runs = fresh.map(({ job, d }) => ({
      id: d.runId,
      schedule_id: d.schedule.id,
      team_id: d.schedule.teamId,
      due: job.payload.due,
      attempts: job.attempts,
      missed: d.missed,
      next_run_at: d.next?.toISOString() ?? null,
    }));
    ctes.push(
      `ins as (insert into schedule_runs (id, schedule_id, team_id, scheduled_for, started_at, status, attempts, missed_runs)
         select n.id, n.schedule_id, n.team_id, n.due, clock_timestamp(), 'running', n.attempts, n.missed
         from jsonb_to_recordset(?::jsonb) as n(id text, schedule_id text, team_id text, due timestamptz, attempts int, missed int)
         on conflict (schedule_id, scheduled_for) do nothing returning *)`,
      `moved as (update schedules s set next_run_at = u.next_run_at, last_run_id = u.id, runs_count = s.runs_count + 1
         from jsonb_to_recordset(?::jsonb) as u(id text, schedule_id text, next_run_at timestamptz)
         where s.id = u.schedule_id and s.id in (?))`,
    );
    params.push(
      JSON.stringify(runs),
      JSON.stringify(runs),
      runs.map((r) => r.schedule_id),
    );
    results.push(`select 'new' as k, to_jsonb(ins.*) as run from ins`);
    const next = fresh.flatMap(({ d }) => (d.next ? [nextFiring(d.schedule, d.next)] : []));
    if (next.length > 0) {
      ctes.push(`added as (${ENQUEUE_SQL})`);
      params.push(queue.enqueueParam(next));
    }
  }
  if (taken.length > 0) {
    ctes.push(
      `taken as (update schedule_runs r set attempts = t.attempts, started_at = clock_timestamp()
         from jsonb_to_recordset(?::jsonb) as t(id text, attempts int) where r.id = t.id and r.id in (?) returning r.*)`,
    );
    params.push(
      JSON.stringify(taken),
      taken.map((t) => t.id),
    );
    results.push(`select 'again' as k, to_jsonb(taken.*) as run from taken`);
  }
  if (nothing.length > 0) {
    ctes.push(COMPLETE_ALL_CTES);
    params.push(...ownedParams(nothing));
  }
  const inserted = new Map<string, ScheduleRun>();
  const again = new Map<string, ScheduleRun>();
  if (ctes.length === 0) return { inserted, again };
  const rows = await exec<{ k: string; run: Row }>(
    em,
    `with ${ctes.join(',\n')} ${results.length > 0 ? results.join(' union all ') : 'select null as k, null as run where false'}`,
    params,
  );
  for (const { k, run } of rows) (k === 'new' ? inserted : again).set(run.id as string, scheduleRunOf(run));
  if (inserted.size !== fresh.length) throw new Error('a due time being begun has a run already');
  return { inserted, again };
}

/** The job of a schedule's next due time. */
function nextFiring(schedule: Schedule, due: Date): NewJob {
  return {
    id: fireJobId(schedule.id, due),
    kind: FIRE_KIND,
    teamId: schedule.teamId,
    payload: { scheduleId: schedule.id, due: due.toISOString() },
    runAt: due,
  };
}
