import type { EntityManager } from '@mikro-orm/postgresql';

/** Why a job ended without success, as recorded on it (and shown to clients by its module). */
export interface JobError {
  code: string;
  message: string;
}

/** A job as its handler receives it: claimed by `owner` under a lease. */
export interface ClaimedJob<P = Record<string, unknown>> {
  id: string;
  kind: string;
  teamId: string | null;
  payload: P;
  /** Attempts including this one. */
  attempts: number;
  maxAttempts: number;
  concurrencyKey: string | null;
  /** Who holds the lease (`<host>:<pid>:<thread>:<lane>`). */
  owner: string;
}

/** A job to put on the queue. */
export interface NewJob {
  /**
   * The job's id, and its unique key: a second job with the same id is not queued (the first
   * stays as it is). Work with a domain row uses that row's id (a batch item's, a crawl's), so
   * the job and the row it runs are found from each other; a schedule's firing uses
   * `<schedule>:<due time>`, so any number of processes queue it once.
   */
  id: string;
  kind: string;
  teamId?: string | null;
  payload?: Record<string, unknown>;
  /** Higher first; then by `runAt`, then in the order queued. */
  priority?: number;
  /** Not before this (default: now). */
  runAt?: Date;
  /** Jobs sharing a key run at most `JobKindSpec.concurrencyLimit` at once, across every worker. */
  concurrencyKey?: string | null;
  /** Overrides the kind's `maxAttempts` for this job. */
  maxAttempts?: number;
}

/**
 * What a module declares about one kind of job besides its handler: how it is leased, retried
 * and failed. The queue reads it to claim, retry and reap; the handler does the work.
 *
 * @example
 * const deliveries: JobKindSpec = {
 *   kind: 'webhook.delivery',
 *   maxAttempts: 5,
 *   leaseMs: 60_000,
 *   backoff: (attempt) => [120_000, 240_000, 420_000, 900_000][attempt - 1] ?? 900_000,
 *   onFailed: async (em, job, error) => markEventFailed(em, job.id, error),
 * };
 */
export interface JobKindSpec {
  /** `<module>.<what>`: `batch.item`, `crawl.run`, `webhook.delivery`. */
  readonly kind: string;
  /** Attempts (claims) before the job fails for good. */
  readonly maxAttempts: number;
  /** Lease of a claimed job; the worker renews it every third of this while the handler runs. */
  readonly leaseMs: number;
  /** Wait before the next attempt after attempt number `attempt` failed. */
  backoff(attempt: number): number;
  /** Jobs with the same concurrency key run at most this many at once (absent: no limit). */
  readonly concurrencyLimit?: number;
  /**
   * Runs in the transaction that fails the job for good (its handler gave up, or its lease
   * expired on the last attempt), so the job's domain row ends in the same commit. What it
   * returns, `JobQueue.fail` returns.
   */
  onFailed?(em: EntityManager, job: FailedJob, error: JobError): Promise<unknown>;
}

/** A job being failed for good: what `onFailed` learns about it. */
export interface FailedJob {
  id: string;
  kind: string;
  teamId: string | null;
  payload: Record<string, unknown>;
  attempts: number;
}

/** Counts of one kind of job (`JobQueue.figures`). */
export interface JobFigures {
  kind: string;
  queued: number;
  /** Queued and due now. */
  due: number;
  running: number;
  failed: number;
  /** Seconds the oldest due job has waited; 0 when none waits. */
  oldestDueSeconds: number;
}
