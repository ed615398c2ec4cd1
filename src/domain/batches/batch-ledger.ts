import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { exec, execLarge, type SqlValue } from '../../db/sql.js';
import { COMPLETE_SQL } from '../../workers/queue/job-claim.js';
import type { ClaimedJob, JobError } from '../../workers/queue/job-kind.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import { PAGE_INSERT_COLUMNS, PAGE_INSERT_VALUES, pageInsertParams } from '../pages/page-row.js';
import type { Page } from '../pages/page.entity.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';

/** What a batch item's job carries: enough to run it without reading its row. */
export interface BatchItemPayload {
  batchId: string;
  url: string;
  retrieveId: string;
}

export const BATCH_ITEM_JOB = 'batch.item';

/** The batch's counters after an item ended; `finished` when this item completed the batch. */
export interface BatchOutcome {
  id: string;
  teamId: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  retried: number;
  finished: boolean;
}

interface BatchRow {
  id: string;
  team_id: string;
  status: string;
  total_urls: number;
  items_completed: number;
  items_failed: number;
  number_retried: number;
  webhook: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** A batch row as counting an item left it, with its status before. */
interface CountedRow extends BatchRow {
  old_status: string;
}

/**
 * Locks the batch (when `guard` holds) and counts an ended item, completing the batch with its
 * last; `ctes` (each ending in a comma) run first in the same statement. The lock is its own CTE:
 * the status it read (`old_status`) says whether this statement completed the batch. The update
 * joins the lock's row, so the lock is taken and the status read before the update touches the
 * row: a lock the update did not join could run after it and find the row hidden (a statement
 * does not see its own updates), which once lost the batch.completed event
 * (test/regression/batch-last-item-completes-batch-once.test.ts).
 */
function countSql(ctes: string, guard: string): string {
  return `with ${ctes}
    old as (select status from batches where id = ? and ${guard} for update)
    update batches b set items_completed = b.items_completed + ?, items_failed = b.items_failed + ?,
      status = case when b.status = 'in_progress' and b.items_completed + b.items_failed + ? >= b.total_urls
                    then 'completed' else b.status end,
      completed_at = case when b.status = 'in_progress' and b.items_completed + b.items_failed + ? >= b.total_urls
                          then now() else b.completed_at end
    from old where b.id = ?
    returning b.id, b.team_id, b.status, b.total_urls, b.items_completed, b.items_failed, b.number_retried, b.webhook,
              b.created_at, b.completed_at, old.status as old_status`;
}

function countParams(batchId: string, completed: number, failed: number): SqlValue[] {
  return [batchId, completed, failed, completed + failed, completed + failed, batchId];
}

/**
 * How batch items end. Each outcome is one transaction that first ends the item's job on the
 * queue (only while its worker still holds the lease), so an item ends exactly once even when
 * a worker dies and its item is run again; the transaction that ends the last item completes
 * the batch and writes its webhook event.
 */
export class BatchLedger {
  constructor(
    private readonly orm: Orm,
    private readonly queue: JobQueue,
    private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * Records a fetched page as the item's result; null when the lease was lost meanwhile. One
   * statement ends the job, the item, stores the page and counts it (and the batch's event
   * follows in the same transaction when this item was its last).
   */
  complete(job: ClaimedJob<BatchItemPayload>, page: Page): Promise<BatchOutcome | null> {
    return this.orm.em.fork().transactional(async (em) => {
      const [row] = await execLarge<CountedRow>(
        em,
        countSql(
          `done as (${COMPLETE_SQL}),
           item as (update batch_items set status = 'completed', finished_at = now(), error_code = null, error_message = null
                    where id = ? and exists (select 1 from done)),
           page as (insert into pages (${PAGE_INSERT_COLUMNS}) select ${PAGE_INSERT_VALUES}
                    where exists (select 1 from done) on conflict (id) do nothing),`,
          'exists (select 1 from done)',
        ),
        [job.id, job.owner, job.id, ...pageInsertParams(page), ...countParams(job.payload.batchId, 1, 0)],
      );
      return row ? this.counted(em, row) : null;
    });
  }

  /** Ends the item as failed with `error`; null when the lease was lost meanwhile. */
  async fail(job: ClaimedJob<BatchItemPayload>, error: JobError): Promise<BatchOutcome | null> {
    const failed = await this.queue.transaction((em) => this.queue.fail(em, job.id, job.owner, error));
    return (failed?.outcome as BatchOutcome | undefined) ?? null;
  }

  /** Puts the item back for another attempt after a failure that may pass, and counts the retry. */
  retryLater(job: ClaimedJob<BatchItemPayload>, error: JobError): Promise<boolean> {
    return this.queue.transaction(async (em) => {
      if (!(await this.queue.retry(em, job, error))) return false;
      await exec(em, 'update batches set number_retried = number_retried + 1 where id = ?', [job.payload.batchId]);
      return true;
    });
  }

  /**
   * The batch-item kind's `onFailed`: marks the item failed and counts it, in the transaction
   * that failed its job (after its last attempt, or when its worker died on the last one).
   */
  async itemFailed(em: EntityManager, itemId: string, batchId: string, error: JobError): Promise<BatchOutcome> {
    await exec(
      em,
      `update batch_items set status = 'failed', finished_at = now(), error_code = ?, error_message = ? where id = ?`,
      [error.code, error.message.slice(0, 2000), itemId],
    );
    return this.countEnded(em, batchId, 0, 1);
  }

  /** Counts an ended item; completes the batch (and writes its webhook event) with its last item. */
  private async countEnded(
    em: EntityManager,
    batchId: string,
    completed: number,
    failed: number,
  ): Promise<BatchOutcome> {
    const [row] = await exec<CountedRow>(em, countSql('', 'true'), countParams(batchId, completed, failed));
    return this.counted(em, row!);
  }

  /** The outcome of a counted item, and the batch's event when it was the last. */
  private async counted(em: EntityManager, batch: CountedRow): Promise<BatchOutcome> {
    const finished = batch.old_status === 'in_progress' && batch.status === 'completed';
    if (finished && batch.webhook) {
      await this.outbox.enqueue(em, {
        teamId: batch.team_id,
        type: 'batch.completed',
        resourceId: batch.id,
        url: batch.webhook,
        data: {
          id: batch.id,
          object: 'batch',
          status: batch.status,
          items_total: batch.total_urls,
          items_completed: batch.items_completed,
          items_failed: batch.items_failed,
          created_at: new Date(batch.created_at).toISOString(),
          completed_at: new Date(batch.completed_at!).toISOString(),
        },
      });
    }
    return {
      id: batch.id,
      teamId: batch.team_id,
      status: batch.status,
      total: batch.total_urls,
      completed: batch.items_completed,
      failed: batch.items_failed,
      retried: batch.number_retried,
      finished,
    };
  }
}
