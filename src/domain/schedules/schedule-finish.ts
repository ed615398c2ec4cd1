import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, type Row } from '../../db/sql.js';
import { toStorable } from '../../input-rules.js';
import type { ClaimedJob } from '../../workers/queue/job-kind.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { CallOutcome } from './schedule-caller.js';
import { scheduleOf, scheduleRunOf, type FirePayload } from './schedule-rows.js';
import type { Schedule, ScheduleRun } from './schedule.entity.js';

/** A call made: its job, its run, and what the call came to. */
export interface Called {
  job: ClaimedJob<FirePayload>;
  scheduleId: string;
  runId: string;
  outcome: CallOutcome;
}

/** A run recorded, and its schedule after it. */
export interface Finished {
  schedule: Schedule;
  run: ScheduleRun;
}

/** A schedule with no due time left (and no run under way) ends DELETED. */
export const END_IF_DONE = `update schedules set
   state = case when next_run_at is null then 'DELETED' else state end,
   deleted_at = case when next_run_at is null then coalesce(deleted_at, now()) else deleted_at end`;

/**
 * Records the outcomes of a group of calls in the caller's transaction, in three statements
 * whatever the group's size (four when some schedules end): completes the jobs whose lease their
 * worker still holds (the others are no longer theirs to record: the next attempt takes the run
 * over), ends the schedules with no due time left (locked in id order first, as a group's begin
 * locks them), and records the runs, reading their schedules as they are now. A schedule that
 * goes on is not written (it was rewritten, unchanged, once per run).
 * One result per call, in order: null when its lease was lost.
 */
export async function finishFirings(
  em: EntityManager,
  queue: JobQueue,
  calls: readonly Called[],
): Promise<(Finished | null)[]> {
  const completed = await queue.completeAll(
    em,
    calls.map((c) => c.job),
  );
  const mine = calls.filter((c) => completed.has(c.job.id));
  if (mine.length === 0) return calls.map(() => null);
  const scheduleIds = [...new Set(mine.map((c) => c.scheduleId))];
  // Only the schedules with no due time left are locked (in id order) and written.
  const ending = await exec<{ id: string }>(
    em,
    `select id from schedules where id in (?) and next_run_at is null and state <> 'DELETED' order by id for update`,
    [scheduleIds],
  );
  if (ending.length > 0) await exec(em, `${END_IF_DONE} where id in (?)`, [ending.map((r) => r.id)]);
  const rows = await exec(
    em,
    `with runs as (
       update schedule_runs r set status = f.status, finished_at = clock_timestamp(), http_status = f.http_status,
         error = f.error, resource_id = f.resource_id, response_excerpt = f.excerpt
       from jsonb_to_recordset(?::jsonb)
         as f(id text, status text, http_status int, error text, resource_id text, excerpt text)
       where r.id = f.id and r.id in (?) returning r.*)
     select to_jsonb(runs.*) as run, to_jsonb(s.*) as schedule from runs join schedules s on s.id = runs.schedule_id`,
    [
      JSON.stringify(
        mine.map(({ runId, outcome }) => ({
          id: runId,
          status: outcome.ok ? 'succeeded' : 'failed',
          http_status: outcome.httpStatus,
          error: toStorable(outcome.error?.slice(0, 2000) ?? null),
          resource_id: outcome.resourceId,
          // A response's first bytes may hold NULs or a cut surrogate: Postgres refuses both.
          excerpt: toStorable(outcome.excerpt),
        })),
      ),
      mine.map((c) => c.runId),
    ],
  );
  const byRun = new Map(rows.map((r) => [(r.run as Row).id as string, r]));
  return calls.map((c) => {
    const row = completed.has(c.job.id) ? byRun.get(c.runId) : undefined;
    return row ? { schedule: scheduleOf(row.schedule as Row), run: scheduleRunOf(row.run as Row) } : null;
  });
}
