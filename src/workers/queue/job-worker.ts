import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ClaimedJob, JobError, JobKindSpec } from './job-kind.js';
import type { JobQueue } from './job-queue.js';

/** What a handler gets besides its job. */
export interface JobRunContext {
  /** Aborts when the lease is lost or the worker stops: stop, and record nothing more. */
  signal: AbortSignal;
  queue: JobQueue;
}

/**
 * Does one job. Contract: the handler finishes its job itself — `queue.complete`, `queue.retry`
 * or `queue.fail`, in the transaction that records its outcome — before it returns. A handler
 * that throws has its job retried (with the kind's backoff) or failed by the worker: retried
 * while attempts remain and the error may pass (see `isRetryable`). A job left unfinished
 * stays leased until its lease expires, then comes back.
 *
 * @example
 * const handler: JobHandler<{ url: string }> = async (job, { queue, signal }) => {
 *   const page = await fetchPage(job.payload.url, signal);
 *   await orm.em.fork().transactional(async (em) => {
 *     if (await queue.complete(em, job)) await savePage(em, page);
 *   });
 * };
 */
export type JobHandler<P = Record<string, unknown>> = (job: ClaimedJob<P>, ctx: JobRunContext) => Promise<void>;

/** A kind as one worker runs it: its spec, its handler, and how many of its jobs at once. */
export interface WorkerKind {
  spec: JobKindSpec;
  handler: JobHandler<never>;
  /** Jobs of this kind this worker runs at once (0: none). */
  concurrency: number;
  /**
   * Opt-in for kinds whose handlers record many jobs per transaction (group commit): once its
   * slots are full, a freed slot waits this long for others to free before the next claim, so
   * claims (and the groups their jobs form) are many jobs each rather than one at a time.
   * Absent or 0: a freed slot is claimed at once.
   */
  gatherMs?: number;
}

/** Failures worth another attempt: the target or a dependency may answer next time. */
const RETRYABLE = new Set(['upstream', 'timeout', 'unavailable', 'internal', 'rate_limited']);

export function isRetryable(err: unknown): boolean {
  return !(err instanceof AppError) || RETRYABLE.has(err.kind);
}

/** The error recorded on a job for a thrown value (unexpected errors are not shown in detail). */
export function jobErrorOf(err: unknown): JobError {
  if (err instanceof AppError) return { code: err.code, message: err.detail };
  return { code: 'internal_error', message: 'unexpected error while running the job' };
}

const IDLE_MIN_MS = 50;
const IDLE_MAX_MS = 500;

interface Running {
  job: ClaimedJob;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Runs jobs of some kinds from the queue: claims as many of each kind as it has free slots,
 * runs their handlers, renews their leases (a third of the shortest lease), returns expired
 * jobs of its kinds to the queue, and survives the database going away (claims fail, it backs
 * off; whatever it could not record comes back when the lease expires). On stop it stops
 * claiming, lets running jobs finish within the grace period, and gives the rest back.
 */
export class JobWorker {
  private readonly running = new Map<string, Running>();
  private readonly kinds: WorkerKind[];
  private slotFreed: (() => void) | null = null;
  private readonly gatherMs: number;

  constructor(
    private readonly queue: JobQueue,
    kinds: readonly WorkerKind[],
    private readonly logger: Logger,
  ) {
    this.kinds = kinds.filter((k) => k.concurrency > 0);
    this.gatherMs = Math.max(0, ...this.kinds.map((k) => k.gatherMs ?? 0));
  }

  async run(owner: string, signal: AbortSignal, graceMs = 15_000): Promise<void> {
    if (this.kinds.length === 0) return;
    const shortestLease = Math.min(...this.kinds.map((k) => k.spec.leaseMs));
    const heartbeat = setInterval(() => void this.heartbeat(owner), Math.max(500, shortestLease / 3));
    const reaper = setInterval(() => void this.reap(), Math.max(1000, Math.min(10_000, shortestLease / 3)));
    let idleMs = IDLE_MIN_MS;
    try {
      await this.reap();
      while (!signal.aborted) {
        let claimed = 0;
        let failed = false;
        for (const kind of this.kinds) {
          const free = kind.concurrency - this.countOf(kind.spec.kind);
          if (free <= 0) continue;
          try {
            const jobs = await this.queue.claim(kind.spec.kind, owner, free);
            for (const job of jobs) this.start(kind, job);
            claimed += jobs.length;
          } catch (err) {
            failed = true;
            this.logger.warn({ err, kind: kind.spec.kind }, 'claiming jobs failed; retrying');
          }
        }
        if (failed) {
          await sleep(Math.min((idleMs *= 2), 5000), signal);
        } else if (claimed === 0) {
          await Promise.race([sleep(idleMs, signal), this.slotPromise()]);
          idleMs = Math.min(idleMs * 2, IDLE_MAX_MS);
        } else {
          idleMs = IDLE_MIN_MS;
          if (this.kinds.every((k) => this.countOf(k.spec.kind) >= k.concurrency)) {
            await Promise.race([this.slotPromise(), sleep(IDLE_MAX_MS, signal)]);
            if (this.gatherMs > 0) await sleep(this.gatherMs, signal);
          }
        }
      }
    } finally {
      clearInterval(heartbeat);
      clearInterval(reaper);
      await this.drain(owner, graceMs);
    }
  }

  /** Jobs this worker runs right now. */
  held(): ClaimedJob[] {
    return [...this.running.values()].map((r) => r.job);
  }

  private countOf(kind: string): number {
    let n = 0;
    for (const r of this.running.values()) if (r.job.kind === kind) n++;
    return n;
  }

  private start(kind: WorkerKind, job: ClaimedJob): void {
    const controller = new AbortController();
    const done = this.execute(kind, job, controller.signal)
      .catch((err: unknown) => this.logger.error({ err, job: job.id, kind: job.kind }, 'job crashed'))
      .finally(() => {
        this.running.delete(job.id);
        this.slotFreed?.();
      });
    this.running.set(job.id, { job, controller, done });
  }

  private async execute(kind: WorkerKind, job: ClaimedJob, signal: AbortSignal): Promise<void> {
    try {
      await (kind.handler as JobHandler)(job, { signal, queue: this.queue });
    } catch (err) {
      if (signal.aborted) return; // lease lost or stopping: no longer ours to record
      if (!(err instanceof AppError))
        this.logger.error({ err, job: job.id, kind: job.kind }, 'job failed unexpectedly');
      const error = jobErrorOf(err);
      const again = isRetryable(err) && job.attempts < job.maxAttempts;
      await this.settle(job, error, again);
    }
  }

  /** Records a thrown failure: retried while attempts remain, failed for good otherwise. */
  private async settle(job: ClaimedJob, error: JobError, again: boolean): Promise<void> {
    await this.queue.transaction(async (em) => {
      if (again) await this.queue.retry(em, job, error);
      else await this.queue.fail(em, job.id, job.owner, error);
    });
  }

  private async heartbeat(owner: string): Promise<void> {
    try {
      const lost = await this.queue.heartbeat(owner, this.held());
      for (const id of lost) this.running.get(id)?.controller.abort(new Error('lease lost'));
    } catch (err) {
      this.logger.warn({ err }, 'renewing job leases failed');
    }
  }

  private async reap(): Promise<void> {
    try {
      const { requeued, failed } = await this.queue.reap(this.kinds.map((k) => k.spec.kind));
      if (requeued + failed > 0) this.logger.info({ requeued, failed }, 'reaped jobs with expired leases');
    } catch (err) {
      this.logger.warn({ err }, 'reaping expired jobs failed');
    }
  }

  private async drain(owner: string, graceMs: number): Promise<void> {
    const all = [...this.running.values()];
    await Promise.race([Promise.all(all.map((r) => r.done)), sleep(graceMs)]);
    const left = [...this.running.values()];
    for (const r of left) r.controller.abort(new Error('shutting down'));
    // An aborted handler may be inside its last transaction: let it end before giving its job back.
    await Promise.race([Promise.all(left.map((r) => r.done)), sleep(5000)]);
    await this.queue
      .release(
        owner,
        left.map((r) => r.job.id),
      )
      .catch((err: unknown) => this.logger.warn({ err }, 'giving jobs back failed'));
  }

  private slotPromise(): Promise<void> {
    return new Promise((resolve) => (this.slotFreed = resolve));
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (and leaves no listener behind). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
