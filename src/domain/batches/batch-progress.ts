import type { BatchProgressEvent } from '../../pubsub/events.js';
import type { Batch } from './batch.entity.js';

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
