import type { BatchProgressEvent } from '../../pubsub/events.js';
import { epochSeconds } from '../shared/time.js';
import type { BatchItem, BatchItemStatus } from './batch-item.entity.js';
import type { Batch, BatchStatus } from './batch.entity.js';

/** A batch as both transports show it (REST in the spec's snake_case, GraphQL as is). */
export interface BatchView {
  id: string;
  status: BatchStatus;
  /** Epoch seconds. */
  created: number;
  /** Epoch seconds: when the batch ended (completed or cancelled); null while in progress. */
  completedAt: number | null;
  /** ISO 8601 UTC. */
  startDate: string;
  totalUrls: number;
  /** Items that ended (completed or failed). */
  completedUrls: number;
  itemsCompleted: number;
  itemsFailed: number;
  /** Items that had not ended when the batch was cancelled (0 unless cancelled). */
  itemsCancelled: number;
  numberRetried: number;
  /** The parser id, or "none". */
  parser: string;
  country: string | null;
  metadata: Record<string, string>;
  webhook: string | null;
  completionWindow: '24h';
  creditsConsumed: number | null;
  costUsd: number | null;
  /** What the caller should know about the batch as a whole (json_content filled without a model). */
  warning: string | null;
}

export interface BatchItemView {
  customId: string;
  /** Use with retrieve. */
  retrieveId: string;
  url: string;
  metadata: Record<string, string> | null;
  /** `running` while its job is leased. */
  status: BatchItemStatus;
  /** Why it failed (failed items only). */
  error: { code: string; message: string } | null;
}

/** A page of a batch's items. */
export interface BatchItemsPageView {
  batchId: string;
  status: BatchStatus;
  items: BatchItemView[];
  /** Items matching the filter, in all pages. */
  itemsCount: number;
  /** Where the next page starts; null on the last. */
  cursor: number | null;
}

export function batchView(batch: Batch, warning: string | null = null): BatchView {
  return {
    id: batch.id,
    status: batch.status,
    created: epochSeconds(batch.createdAt),
    completedAt: batch.completedAt ? epochSeconds(batch.completedAt) : null,
    startDate: batch.createdAt.toISOString(),
    totalUrls: batch.totalUrls,
    completedUrls: batch.itemsCompleted + batch.itemsFailed,
    itemsCompleted: batch.itemsCompleted,
    itemsFailed: batch.itemsFailed,
    itemsCancelled: itemsCancelled(batch),
    numberRetried: batch.numberRetried,
    parser: batch.parser ?? 'none',
    country: batch.country,
    metadata: batch.metadata,
    webhook: batch.webhook,
    completionWindow: '24h',
    creditsConsumed: batch.itemsCompleted,
    costUsd: null,
    warning,
  };
}

/**
 * Items a cancelled batch did not run: every item that had not ended when it was cancelled
 * (nothing is recorded for them afterwards, so the counts stay as the cancel left them).
 */
export function itemsCancelled(
  batch: Pick<Batch, 'totalUrls' | 'itemsCompleted' | 'itemsFailed'> & { status: string },
): number {
  return batch.status === 'cancelled' ? batch.totalUrls - batch.itemsCompleted - batch.itemsFailed : 0;
}

export function batchItemView(item: BatchItem): BatchItemView {
  return {
    customId: item.customId,
    retrieveId: item.retrieveId,
    url: item.url,
    metadata: item.metadata,
    status: item.status,
    error: item.status === 'failed' ? { code: item.errorCode ?? 'failed', message: item.errorMessage ?? '' } : null,
  };
}

/** A batch's current state as a progress event (sent on creation, and first to new subscribers). */
export function batchProgressEvent(batch: Batch): BatchProgressEvent {
  return {
    type: 'batch.progress',
    teamId: batch.teamId,
    batchId: batch.id,
    status: batch.status,
    total: batch.totalUrls,
    completed: batch.itemsCompleted,
    failed: batch.itemsFailed,
    retried: batch.numberRetried,
    at: Date.now(),
  };
}
