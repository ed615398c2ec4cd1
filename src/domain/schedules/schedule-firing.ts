import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
import type { Logger } from '../../logger.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import { GroupCommit } from '../../db/group-commit.js';
import type { ClaimedJob, FailedJob, JobError, JobKindSpec } from '../../workers/queue/job-kind.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { JobHandler } from '../../workers/queue/job-worker.js';
import { beginFirings, type Begun } from './schedule-begin.js';
import type { CallOutcome, ScheduleCaller } from './schedule-caller.js';
import type { ScheduleEndpoints } from './schedule-endpoint.js';
import { END_IF_DONE, finishFirings, type Called, type Finished } from './schedule-finish.js';
import { FIRE_KIND, type FirePayload } from './schedule-rows.js';
import type { Schedule, ScheduleRun } from './schedule.entity.js';
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
  queue: JobQueue;
  endpoints: ScheduleEndpoints;
  caller: ScheduleCaller;
  pubsub: PubSub;
  logger: Logger;
  now?: () => Date;
}

/** Firings begun per transaction at most (a claim brings at most the kind's concurrency at once). */
const MAX_GROUP = 500;
/** How long a finished call waits for others to be recorded with it. */
const FINISH_WINDOW_MS = 5;

/**
 * Fires schedules. The firings a claim brings begin together: in one transaction (holding the
 * jobs' leases and the schedules' row locks) their runs are recorded, due times missed while no
 * worker ran counted, and the next due times queued; then each makes its call at once; then
 * finished calls are recorded a few milliseconds' worth at a time, in a transaction that
 * completes their jobs (group commit, `GroupCommit`). Deleting a schedule takes the same row
 * lock, so a run either started before the delete or never starts. A group's statements are
 * set-based (beginFirings, finishFirings): a group of 200 costs about what one firing did.
 */
export class ScheduleFiring {
  private readonly begins: GroupCommit<ClaimedJob<FirePayload>, Begun | null>;
  private readonly finishes: GroupCommit<Called, Finished | null>;

  constructor(private readonly deps: ScheduleFiringDeps) {
    const { queue } = deps;
    this.begins = new GroupCommit(
      (jobs) => queue.transaction((em) => beginFirings(em, queue, jobs, this.deps.now?.() ?? new Date())),
      { windowMs: 0, maxSize: MAX_GROUP, maxInFlight: 2 },
    );
    this.finishes = new GroupCommit((calls) => queue.transaction((em) => finishFirings(em, calls)), {
      windowMs: FINISH_WINDOW_MS,
      maxSize: MAX_GROUP,
      maxInFlight: 2,
    });
  }

  handler(): JobHandler<FirePayload> {
    return async (job, { signal }) => {
      const begun = await this.begins.submit(job);
      if (!begun) return;
      const { schedule, run } = begun;
      // The call does not wait for the event.
      const started = this.publish(schedule, run);
      const outcome = await this.call(schedule, run, signal);
      if (signal.aborted) return; // the lease is gone: the next attempt takes the run over
      const finished = await this.finishes.submit({ job, scheduleId: schedule.id, runId: run.id, outcome });
      // The job is done: its slot does not wait for the event (sent after the start event).
      if (finished) void started.then(() => this.publish(finished.schedule, finished.run));
    };
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
