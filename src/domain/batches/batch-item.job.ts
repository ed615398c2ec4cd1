import type { Orm } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { ClaimedJob, JobKindSpec } from '../../workers/queue/job-kind.js';
import { isRetryable, jobErrorOf, type JobHandler } from '../../workers/queue/job-worker.js';
import type { PreparedScrape, ScrapeExecutor } from '../scrapes/scrape-executor.js';
import type { ScrapeOptions } from '../scrapes/scrape.schema.js';
import { BATCH_ITEM_JOB, type BatchItemPayload, type BatchLedger, type BatchOutcome } from './batch-ledger.js';

export interface BatchItemJobSettings {
  leaseMs: number;
  maxAttempts: number;
  /** First retry delay; each further retry waits 4× longer. */
  retryBaseMs: number;
  /** Items fetched from one host at once, across every worker (politeness). */
  hostConcurrency: number;
}

export interface BatchItemJobDeps {
  orm: Orm;
  ledger: BatchLedger;
  executor: ScrapeExecutor;
  pubsub: PubSub;
  logger: Logger;
  settings: BatchItemJobSettings;
}

const PROGRESS_EVERY_MS = 250;

/** The batch-item kind: one URL of a batch, leased per item, at most `hostConcurrency` per host. */
export function batchItemKind(settings: BatchItemJobSettings, ledger: () => BatchLedger): JobKindSpec {
  return {
    kind: BATCH_ITEM_JOB,
    maxAttempts: settings.maxAttempts,
    leaseMs: settings.leaseMs,
    backoff: (attempt) => settings.retryBaseMs * 4 ** (attempt - 1),
    concurrencyLimit: settings.hostConcurrency,
    onFailed: (em, job, error) =>
      ledger().itemFailed(em, job.id, (job.payload as unknown as BatchItemPayload).batchId, error),
  };
}

/**
 * Runs one batch item: fetches it through the same executor as a single scrape and records the
 * result under the item's lease; a failure that may pass is retried with backoff until the
 * attempts run out. Progress goes on the pubsub (throttled per batch; always when it completes).
 */
export function batchItemHandler(deps: BatchItemJobDeps): JobHandler<BatchItemPayload> {
  const prepared = new Map<string, { prepared: PreparedScrape; options: ScrapeOptions }>();
  const lastProgress = new Map<string, number>();

  /** The batch's scrape options, validated and compiled once per batch; null when the batch is gone. */
  const prepare = async (batchId: string) => {
    let entry = prepared.get(batchId);
    if (!entry) {
      const rows = await deps.orm.em
        .getConnection()
        .execute<{ options: ScrapeOptions }[]>('select options from batches where id = ?', [batchId]);
      if (rows.length === 0) return null;
      const options = rows[0]!.options;
      entry = { prepared: deps.executor.prepare(options), options };
      if (prepared.size > 200) prepared.clear();
      prepared.set(batchId, entry);
    }
    return entry;
  };

  const progress = async (outcome: BatchOutcome) => {
    const now = Date.now();
    if (!outcome.finished && now - (lastProgress.get(outcome.id) ?? 0) < PROGRESS_EVERY_MS) return;
    lastProgress.set(outcome.id, now);
    if (outcome.finished) lastProgress.delete(outcome.id);
    await deps.pubsub
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
      .catch((err: unknown) => deps.logger.warn({ err }, 'publishing batch progress failed'));
  };

  const recordFailure = async (job: ClaimedJob<BatchItemPayload>, err: unknown) => {
    const error = jobErrorOf(err);
    if (!(err instanceof AppError)) deps.logger.error({ err, item: job.id }, 'unexpected error in batch item');
    if (isRetryable(err) && job.attempts < job.maxAttempts) {
      await deps.ledger.retryLater(job, error);
      return null;
    }
    return deps.ledger.fail(job, error);
  };

  return async (job, { signal, queue }) => {
    let outcome: BatchOutcome | null;
    try {
      const batch = await prepare(job.payload.batchId);
      if (!batch) {
        // Deleted (its team was, or retention) while the item waited: nothing left to record.
        await queue.transaction((em) => queue.complete(em, job));
        return;
      }
      const { prepared: compiled, options } = batch;
      const executed = await deps.executor.execute(
        {
          teamId: job.teamId!,
          url: job.payload.url,
          urlField: 'url',
          options,
          pageId: job.payload.retrieveId,
          source: 'batch',
          signal,
        },
        compiled,
      );
      outcome = await deps.ledger.complete(job, executed.page);
      // Refused: the lease was lost (another worker stores this page again) or the batch was
      // cancelled (nobody will: its objects go).
      if (!outcome && (await queue.wasCancelled(job.id))) await deps.executor.discard(executed.page);
    } catch (err) {
      if (signal.aborted) return; // lease lost or shutting down: the item is no longer ours to record
      outcome = await recordFailure(job, err);
    }
    if (outcome) await progress(outcome);
  };
}
