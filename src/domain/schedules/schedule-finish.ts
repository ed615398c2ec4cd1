import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, type Row } from '../../db/sql.js';
import { toStorable } from '../../input-rules.js';
import type { ClaimedJob } from '../../workers/queue/job-kind.js';
import { COMPLETE_ALL_CTES, ownedParams } from '../../workers/queue/job-claim.js';
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

/** An enabled schedule with no due time left (and no run under way) ends DELETED; a paused one has none by design. */
export const END_IF_DONE = `update schedules set
   state = case when next_run_at is null and state = 'ENABLED' then 'DELETED' else state end,
   deleted_at = case when next_run_at is null and state = 'ENABLED' then coalesce(deleted_at, now()) else deleted_at end`;

/**
 * Records the outcomes of a group of calls in the caller's transaction, in one statement whatever
 * the group's size (three when some schedules end): completes the jobs whose lease their worker
 * still holds (the others are no longer theirs to record: the next attempt takes the run over),
 * records those jobs' runs and reads their schedules as they are now. A schedule that goes on is
 * not written; one with no due time left is then locked and ended, and read again.
 * One result per call, in order: null when its lease was lost.
 */
export async function finishFirings(em: EntityManager, calls: readonly Called[]): Promise<(Finished | null)[]> {
  if (calls.length === 0) return [];
  const rows = await exec(
    em,
    `with ${COMPLETE_ALL_CTES},
     runs as (
       update schedule_runs r set status = f.status, finished_at = clock_timestamp(), http_status = f.http_status,
         error = f.error, resource_id = f.resource_id, response_excerpt = f.excerpt
       from jsonb_to_recordset(?::jsonb)
         as f(id text, job_id text, status text, http_status int, error text, resource_id text, excerpt text)
       where r.id = f.id and r.id in (?) and f.job_id in (select id from done) returning r.*)
     select to_jsonb(runs.*) as run, to_jsonb(s.*) as schedule from runs join schedules s on s.id = runs.schedule_id`,
    [
      ...ownedParams(calls.map((c) => c.job)),
      JSON.stringify(
        calls.map(({ job, runId, outcome }) => ({
          id: runId,
          job_id: job.id,
          status: outcome.ok ? 'succeeded' : 'failed',
          http_status: outcome.httpStatus,
          error: toStorable(outcome.error?.slice(0, 2000) ?? null),
          resource_id: outcome.resourceId,
          // A response's first bytes may hold NULs or a cut surrogate: Postgres refuses both.
          excerpt: toStorable(outcome.excerpt),
        })),
      ),
      calls.map((c) => c.runId),
    ],
  );
  const ended = await endSchedules(em, rows);
  const byRun = new Map(rows.map((r) => [(r.run as Row).id as string, r]));
  return calls.map((c) => {
    const row = byRun.get(c.runId);
    if (!row) return null;
    const schedule = row.schedule as Row;
    return { schedule: scheduleOf(ended.get(schedule.id as string) ?? schedule), run: scheduleRunOf(row.run as Row) };
  });
}

/**
 * Ends the schedules among `rows` with no due time left (locked in id order, as a group's begin
 * locks them; a delete may have ended one meanwhile); their rows as they are now, by id.
 */
async function endSchedules(em: EntityManager, rows: readonly Row[]): Promise<Map<string, Row>> {
  const ids = [
    ...new Set(
      rows
        .map((r) => r.schedule as Row)
        .filter((s) => s.next_run_at === null && s.state === 'ENABLED')
        .map((s) => s.id as string),
    ),
  ];
  if (ids.length === 0) return new Map();
  const ending = await exec<{ id: string }>(
    em,
    `select id from schedules where id in (?) and next_run_at is null and state = 'ENABLED' order by id for update`,
    [ids],
  );
  if (ending.length === 0) return new Map();
  const ended = await exec(em, `${END_IF_DONE} where id in (?) returning *`, [ending.map((r) => r.id)]);
  return new Map(ended.map((r) => [r.id as string, r]));
}
