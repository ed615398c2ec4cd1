import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { itemsCancelled } from './batch.view.js';

/** The batch row a cancel leaves (`batches.*`), and whether this cancel is what ended it. */
export interface CancelledBatch {
  row: Record<string, unknown> & { status: string };
  cancelledNow: boolean;
}

/**
 * Cancels a batch in progress, in `em`'s transaction: the jobs of its items not ended yet
 * (queued or running) are cancelled first, locking them as the ledger does before it locks
 * the batch, so an item being recorded right now either ends first (and counts) or never ends;
 * then those items become `cancelled`, the batch `cancelled` (`completed_at`: when it ended),
 * and its `batch.cancelled` event goes to the outbox. Null when the team has no such batch; a
 * batch that is not in progress is left as it is (`cancelledNow` false): cancelling twice
 * changes nothing, and a completed batch stays completed.
 */
export async function cancelBatch(
  em: EntityManager,
  deps: { queue: JobQueue; outbox: WebhookOutbox },
  teamId: string,
  batchId: string,
): Promise<CancelledBatch | null> {
  const [found] = await exec<{ status: string }>(em, 'select status from batches where id = ? and team_id = ?', [
    batchId,
    teamId,
  ]);
  if (!found) return null;
  if (found.status === 'in_progress') {
    const open = await exec<{ id: string }>(em, `select id from batch_items where batch_id = ? and status = 'queued'`, [
      batchId,
    ]);
    await deps.queue.cancel(
      em,
      open.map((item) => item.id),
    );
    const [row] = await exec<CancelledBatch['row']>(
      em,
      `update batches set status = 'cancelled', completed_at = now() where id = ? and status = 'in_progress'
       returning *`,
      [batchId],
    );
    if (row) {
      await exec(
        em,
        `update batch_items set status = 'cancelled', finished_at = now() where batch_id = ? and status = 'queued'`,
        [batchId],
      );
      if (row.webhook) await deps.outbox.enqueue(em, cancelledEvent(row));
      return { row, cancelledNow: true };
    }
  }
  // Not in progress (or its last item ended it while this looked): as it is now.
  const [row] = await exec<CancelledBatch['row']>(em, 'select * from batches where id = ?', [batchId]);
  return { row: row!, cancelledNow: false };
}

function cancelledEvent(row: CancelledBatch['row']) {
  const counts = {
    status: row.status,
    totalUrls: row.total_urls as number,
    itemsCompleted: row.items_completed as number,
    itemsFailed: row.items_failed as number,
  };
  return {
    teamId: row.team_id as string,
    type: 'batch.cancelled',
    resourceId: row.id as string,
    url: row.webhook as string,
    // batch.completed's data (spec, "Webhooks"), with the items that did not run.
    data: {
      id: row.id,
      object: 'batch',
      status: row.status,
      items_total: counts.totalUrls,
      items_completed: counts.itemsCompleted,
      items_failed: counts.itemsFailed,
      items_cancelled: itemsCancelled(counts),
      created_at: new Date(row.created_at as string | Date).toISOString(),
      completed_at: new Date(row.completed_at as string | Date).toISOString(),
    },
  };
}
