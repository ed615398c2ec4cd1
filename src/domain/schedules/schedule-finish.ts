import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
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
 * Records the outcomes of a group of calls in the caller's transaction, in four statements
 * whatever the group's size: completes the jobs whose lease their worker still holds (the
 * others are no longer theirs to record: the next attempt takes the run over), locks their
 * schedules in id order (as a group's begin does), records the runs, and ends the schedules
 * with no due time left. One result per call, in order: null when its lease was lost.
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
  await exec(em, 'select id from schedules where id in (?) order by id for update', [scheduleIds]);
  const runs = await exec(
    em,
    `update schedule_runs r set status = f.status, finished_at = clock_timestamp(), http_status = f.http_status,
       error = f.error, resource_id = f.resource_id, response_excerpt = f.excerpt
     from jsonb_to_recordset(?::jsonb)
       as f(id text, status text, http_status int, error text, resource_id text, excerpt text)
     where r.id = f.id and r.id in (?) returning r.*`,
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
  const schedules = await exec(em, `${END_IF_DONE} where id in (?) returning *`, [scheduleIds]);
  const runById = new Map(runs.map((r) => [r.id as string, scheduleRunOf(r)]));
  const scheduleById = new Map(schedules.map((s) => [s.id as string, scheduleOf(s)]));
  return calls.map((c) => {
    const run = completed.has(c.job.id) ? runById.get(c.runId) : undefined;
    const schedule = scheduleById.get(c.scheduleId);
    return run && schedule ? { schedule, run } : null;
  });
}
