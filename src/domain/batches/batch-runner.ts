import type { Orm } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { PreparedScrape, ScrapeExecutor } from '../scrapes/scrape-executor.js';
import type { ScrapeOptions } from '../scrapes/scrape.schema.js';
import type { BatchOutcome, BatchQueue, ClaimedItem } from './batch-queue.js';

export interface BatchRunnerDeps {
  orm: Orm;
  queue: BatchQueue;
  executor: ScrapeExecutor;
  pubsub: PubSub;
  logger: Logger;
  /** Items run at once by this runner (WORKER_CONCURRENCY). */
  concurrency: number;
}

/** Failures worth another attempt: the target or a dependency may answer next time. */
const RETRYABLE = new Set(['upstream', 'timeout', 'unavailable', 'internal', 'rate_limited']);
const IDLE_MAX_MS = 500;
const PROGRESS_EVERY_MS = 250;

/**
 * Runs batch items: claims as many as it has free slots, fetches each through the same
 * executor as a single scrape, and records the result under the item's lease. Survives a
 * database outage (claims fail, it backs off and tries again; unrecorded items come back
 * through the reaper). On stop it stops claiming, lets running items finish within the grace
 * period, and gives the rest back to the queue.
 */
export class BatchRunner {
  private readonly running = new Map<string, { item: ClaimedItem; controller: AbortController; done: Promise<void> }>();
  private readonly prepared = new Map<string, PreparedScrape>();
  private readonly lastProgress = new Map<string, number>();
  private slotFreed: (() => void) | null = null;

  constructor(private readonly deps: BatchRunnerDeps) {}

  async run(owner: string, signal: AbortSignal, graceMs = 15_000): Promise<void> {
    const { queue, logger } = this.deps;
    const heartbeat = setInterval(() => void this.heartbeat(owner), Math.max(500, queue.settings.leaseMs / 3));
    let idleMs = 50;
    try {
      while (!signal.aborted) {
        const free = this.deps.concurrency - this.running.size;
        if (free <= 0) {
          await this.waitForSlot(signal);
          continue;
        }
        let claimed: ClaimedItem[] = [];
        try {
          claimed = await queue.claim(owner, free);
        } catch (err) {
          logger.warn({ err }, 'claiming batch items failed; retrying');
          await sleep(Math.min((idleMs *= 2), 5000), signal);
          continue;
        }
        for (const item of claimed) this.start(owner, item);
        if (claimed.length === 0) {
          await Promise.race([sleep(idleMs, signal), this.slotPromise()]);
          idleMs = Math.min(idleMs * 2, IDLE_MAX_MS);
        } else {
          idleMs = 50;
        }
      }
    } finally {
      clearInterval(heartbeat);
      await this.drain(owner, graceMs);
    }
  }

  private start(owner: string, item: ClaimedItem): void {
    const controller = new AbortController();
    const done = this.process(owner, item, controller.signal)
      .catch((err: unknown) => this.deps.logger.error({ err, item: item.id }, 'batch item crashed'))
      .finally(() => {
        this.running.delete(item.id);
        this.slotFreed?.();
      });
    this.running.set(item.id, { item, controller, done });
  }

  private async process(owner: string, item: ClaimedItem, signal: AbortSignal): Promise<void> {
    const { queue, executor } = this.deps;
    let outcome: BatchOutcome | null;
    try {
      const { prepared, options } = await this.prepare(item.batchId);
      const executed = await executor.execute(
        {
          teamId: item.teamId,
          url: item.url,
          urlField: 'url',
          options,
          pageId: item.retrieveId,
          source: 'batch',
          signal,
        },
        prepared,
      );
      outcome = await queue.complete(owner, item, executed.page);
    } catch (err) {
      if (signal.aborted) return; // lease lost or shutting down: the item is no longer ours to record
      outcome = await this.recordFailure(owner, item, err);
    }
    if (outcome) await this.progress(outcome);
  }

  private async recordFailure(owner: string, item: ClaimedItem, err: unknown): Promise<BatchOutcome | null> {
    const { queue, logger } = this.deps;
    const appError = err instanceof AppError ? err : null;
    const error = {
      code: appError?.code ?? 'internal_error',
      message: appError?.detail ?? 'unexpected error while processing the item',
    };
    if (!appError) logger.error({ err, item: item.id }, 'unexpected error in batch item');
    const retryable = !appError || RETRYABLE.has(appError.kind);
    if (retryable && item.attempts < queue.settings.maxAttempts) {
      await queue.retryLater(owner, item, error);
      return null;
    }
    return queue.fail(owner, item, error);
  }

  /** The batch's scrape options, validated and compiled once per batch. */
  private async prepare(batchId: string): Promise<{ prepared: PreparedScrape; options: ScrapeOptions }> {
    const rows = await this.deps.orm.em
      .getConnection()
      .execute<{ options: ScrapeOptions }[]>('select options from batches where id = ?', [batchId]);
    const options = rows[0]!.options;
    let prepared = this.prepared.get(batchId);
    if (!prepared) {
      prepared = this.deps.executor.prepare(options);
      if (this.prepared.size > 200) this.prepared.clear();
      this.prepared.set(batchId, prepared);
    }
    return { prepared, options };
  }

  private async progress(outcome: BatchOutcome): Promise<void> {
    const now = Date.now();
    if (!outcome.finished && now - (this.lastProgress.get(outcome.id) ?? 0) < PROGRESS_EVERY_MS) return;
    this.lastProgress.set(outcome.id, now);
    if (outcome.finished) this.lastProgress.delete(outcome.id);
    await this.deps.pubsub
      .publish({
        type: 'batch.progress',
        teamId: outcome.teamId,
        batchId: outcome.id,
        status: outcome.status,
        total: outcome.total,
        completed: outcome.completed,
        failed: outcome.failed,
        retried: outcome.retried,
        at: now,
      })
      .catch((err: unknown) => this.deps.logger.warn({ err }, 'publishing batch progress failed'));
  }

  private async heartbeat(owner: string): Promise<void> {
    try {
      const lost = await this.deps.queue.heartbeat(owner, [...this.running.keys()]);
      for (const id of lost) this.running.get(id)?.controller.abort(new Error('lease lost'));
    } catch (err) {
      this.deps.logger.warn({ err }, 'renewing leases failed');
    }
  }

  private async drain(owner: string, graceMs: number): Promise<void> {
    const all = [...this.running.values()];
    await Promise.race([Promise.all(all.map((r) => r.done)), sleep(graceMs)]);
    const left = [...this.running.values()];
    for (const r of left) r.controller.abort(new Error('shutting down'));
    await this.deps.queue
      .release(
        owner,
        left.map((r) => r.item.id),
      )
      .catch(() => undefined);
  }

  private slotPromise(): Promise<void> {
    return new Promise((resolve) => (this.slotFreed = resolve));
  }

  private waitForSlot(signal: AbortSignal): Promise<void> {
    return Promise.race([this.slotPromise(), sleep(IDLE_MAX_MS, signal)]);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (and leaves no listener behind). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
