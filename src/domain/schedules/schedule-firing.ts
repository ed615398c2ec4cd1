import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, type Row } from '../../db/sql.js';
import type { Logger } from '../../logger.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { ClaimedJob, FailedJob, JobError, JobKindSpec } from '../../workers/queue/job-kind.js';
import type { JobHandler } from '../../workers/queue/job-worker.js';
import { dueTimesAfter } from './schedule-due.js';
import type { CallOutcome, ScheduleCaller } from './schedule-caller.js';
import type { ScheduleEndpoints } from './schedule-endpoint.js';
import { FIRE_KIND, fireJobId, scheduleOf, scheduleRunOf, type FirePayload } from './schedule-rows.js';
import type { Schedule, ScheduleRun } from './schedule.entity.js';
import { newRunId } from './schedule.service.js';
import { scheduleRunView, type ScheduleRunView } from './schedule.view.js';

/** The `schedule.run` event: a run started or finished (GraphQL `scheduleRuns`). */
export type ScheduleRunEvent = {
  type: 'schedule.run';
  teamId: string;
  subject: { kind: 'schedule'; id: string };
  at: number;
  run: ScheduleRunView;
  /** The schedule's state after this run (a one-time schedule ends DELETED). */
  state: Schedule['state'];
};

/**
 * `schedule.fire`: one job per schedule and due time (its id is the unique key
 * `<schedule>:<due>`), so any number of workers fire a due time once. A job that runs after a
 * worker died mid-call takes over the run it left (`attempts` counts them); on its last
 * attempt the run is recorded failed (`worker_lost`), never lost.
 */
export function scheduleFireKind(leaseMs: number, firing: () => ScheduleFiring): JobKindSpec {
  return {
    kind: FIRE_KIND,
    maxAttempts: 3,
    leaseMs,
    backoff: () => 1000,
    onFailed: (em, job, error) => firing().failRun(em, job, error),
  };
}

export interface ScheduleFiringDeps {
  endpoints: ScheduleEndpoints;
  caller: ScheduleCaller;
  pubsub: PubSub;
  logger: Logger;
  now?: () => Date;
}

/**
 * Fires schedules: in one transaction (holding the job's lease and the schedule's row lock) it
 * records the run, counts due times missed while no worker ran, and queues the next due time;
 * then it makes the call; then, in a second transaction that completes the job, it records the
 * outcome. Deleting a schedule takes the same row lock, so a run either started before the
 * delete or never starts.
 */
export class ScheduleFiring {
  constructor(private readonly deps: ScheduleFiringDeps) {}

  handler(): JobHandler<FirePayload> {
    return async (job, { queue, signal }) => {
      const begun = await queue.transaction((em) => this.begin(em, job, queue));
      if (!begun) return;
      const { schedule, run } = begun;
      await this.publish(schedule, run);
      const outcome = await this.call(schedule, run, signal);
      if (signal.aborted) return; // the lease is gone: the next attempt takes the run over
      const finished = await queue.transaction(async (em) => {
        if (!(await queue.complete(em, job))) return null;
        return this.finish(em, schedule.id, run.id, outcome);
      });
      if (finished) await this.publish(finished.schedule, finished.run);
    };
  }

  private async begin(
    em: EntityManager,
    job: ClaimedJob<FirePayload>,
    queue: Parameters<JobHandler>[1]['queue'],
  ): Promise<{ schedule: Schedule; run: ScheduleRun } | null> {
    if (!(await queue.holds(em, job.id, job.owner))) return null;
    const due = new Date(job.payload.due);
    // The schedule (locked: a delete waits for this run to be recorded) and this due time's run, if any.
    const [row] = await exec(
      em,
      `select s.*, to_jsonb(r.*) as due_run from schedules s
       left join schedule_runs r on r.schedule_id = s.id and r.scheduled_for = ?
       where s.id = ? for update of s`,
      [due, job.payload.scheduleId],
    );
    if (!row) {
      await queue.complete(em, job);
      return null;
    }
    const schedule = scheduleOf(row);
    const existing = row.due_run as Row | null;
    if (existing) {
      const run = scheduleRunOf(existing);
      if (run.status !== 'running') {
        await queue.complete(em, job);
        return null;
      }
      // A worker died during this run's call: this attempt makes it again.
      const [again] = await exec(
        em,
        'update schedule_runs set attempts = ?, started_at = clock_timestamp() where id = ? returning *',
        [job.attempts, run.id],
      );
      return { schedule, run: scheduleRunOf(again!) };
    }
    // Deleted, or a due time the schedule no longer has: nothing to fire.
    if (schedule.state !== 'ENABLED' || schedule.nextRunAt?.getTime() !== due.getTime()) {
      await queue.complete(em, job);
      return null;
    }
    const now = this.deps.now?.() ?? new Date();
    const { missed, next } = dueTimesAfter(schedule, due, now);
    const [inserted] = await exec(
      em,
      `insert into schedule_runs (id, schedule_id, team_id, scheduled_for, started_at, status, attempts, missed_runs)
       values (?, ?, ?, ?, clock_timestamp(), 'running', ?, ?) returning *`,
      [newRunId(), schedule.id, schedule.teamId, due, job.attempts, missed],
    );
    const run = scheduleRunOf(inserted!);
    await exec(em, 'update schedules set next_run_at = ?, last_run_id = ?, runs_count = runs_count + 1 where id = ?', [
      next,
      run.id,
      schedule.id,
    ]);
    if (next) {
      await queue.enqueue(
        [
          {
            id: fireJobId(schedule.id, next),
            kind: FIRE_KIND,
            teamId: schedule.teamId,
            payload: { scheduleId: schedule.id, due: next.toISOString() },
            runAt: next,
          },
        ],
        em,
      );
    }
    return { schedule: { ...schedule, nextRunAt: next, lastRunId: run.id }, run };
  }

  private async call(schedule: Schedule, run: ScheduleRun, signal: AbortSignal): Promise<CallOutcome> {
    try {
      // The endpoint is resolved again now: a URL is checked against today's policy and DNS.
      const target = this.deps.endpoints.resolve(schedule.method, schedule.endpoint);
      return await this.deps.caller.call({
        target,
        method: schedule.method,
        payload: schedule.payload,
        actor: { teamId: schedule.teamId, via: 'api_key' },
        scheduleId: schedule.id,
        runId: run.id,
        signal,
      });
    } catch (err) {
      const detail =
        err instanceof Error && 'code' in err
          ? `${String((err as { code: unknown }).code)}: ${err.message}`
          : 'unexpected error';
      this.deps.logger.warn({ err, scheduleId: schedule.id }, 'schedule call failed before it was made');
      return { ok: false, httpStatus: null, error: detail, resourceId: null, excerpt: null };
    }
  }

  /** Records the outcome; a schedule with no run left ends DELETED. */
  private async finish(
    em: EntityManager,
    scheduleId: string,
    runId: string,
    outcome: CallOutcome,
  ): Promise<{ schedule: Schedule; run: ScheduleRun }> {
    const [row] = await exec(
      em,
      `with run as (
         update schedule_runs set status = ?, finished_at = clock_timestamp(), http_status = ?, error = ?,
           resource_id = ?, response_excerpt = ? where id = ? returning *
       ), schedule as (${END_IF_DONE} where id = ? returning *)
       select (select to_jsonb(run.*) from run) as run, (select to_jsonb(schedule.*) from schedule) as schedule`,
      [
        outcome.ok ? 'succeeded' : 'failed',
        outcome.httpStatus,
        outcome.error?.slice(0, 2000) ?? null,
        outcome.resourceId,
        outcome.excerpt,
        runId,
        scheduleId,
      ],
    );
    return { schedule: scheduleOf(row!.schedule as Row), run: scheduleRunOf(row!.run as Row) };
  }

  /** The job's last attempt was lost with its worker: the run is recorded failed, in the transaction that fails the job. */
  async failRun(em: EntityManager, job: FailedJob, error: JobError): Promise<void> {
    const payload = job.payload as unknown as FirePayload;
    await exec(
      em,
      `update schedule_runs set status = 'failed', finished_at = clock_timestamp(), error = ?
       where schedule_id = ? and scheduled_for = ? and status = 'running'`,
      [`${error.code}: ${error.message}`.slice(0, 2000), payload.scheduleId, new Date(payload.due)],
    );
    await exec(em, `${END_IF_DONE} where id = ?`, [payload.scheduleId]);
  }

  private async publish(schedule: Schedule, run: ScheduleRun): Promise<void> {
    const event: ScheduleRunEvent = {
      type: 'schedule.run',
      teamId: schedule.teamId,
      subject: { kind: 'schedule', id: schedule.id },
      at: Date.now(),
      run: scheduleRunView(run),
      state: schedule.state,
    };
    await this.deps.pubsub.publish(event).catch((err: unknown) => {
      this.deps.logger.warn({ err, scheduleId: schedule.id }, 'could not publish a schedule run');
    });
  }
}

/** A schedule with no due time left (and no run under way) ends DELETED. */
const END_IF_DONE = `update schedules set
   state = case when next_run_at is null then 'DELETED' else state end,
   deleted_at = case when next_run_at is null then coalesce(deleted_at, now()) else deleted_at end`;
