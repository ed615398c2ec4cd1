import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { exec, execLarge } from '../../db/sql.js';
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

  /** Records a fetched page as the item's result; null when the lease was lost meanwhile. */
  complete(job: ClaimedJob<BatchItemPayload>, page: Page): Promise<BatchOutcome | null> {
    return this.orm.em.fork().transactional(async (em) => {
      if (!(await this.queue.complete(em, job))) return null;
      await exec(
        em,
        `update batch_items set status = 'completed', finished_at = now(), error_code = null, error_message = null
         where id = ?`,
        [job.id],
      );
      await execLarge(
        em,
        `insert into pages (${PAGE_INSERT_COLUMNS}) values (${PAGE_INSERT_VALUES}) on conflict (id) do nothing`,
        pageInsertParams(page),
      );
      return this.countEnded(em, job.payload.batchId, 1, 0);
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
    // Lock first, in its own statement: a row updated by a statement is invisible to that
    // statement's own FOR UPDATE scan, so "was it still in progress" must be read before.
    const [old] = await exec(em, 'select status from batches where id = ? for update', [batchId]);
    const [row] = (await exec(
      em,
      `update batches set items_completed = items_completed + ?, items_failed = items_failed + ?,
         status = case when status = 'in_progress' and items_completed + items_failed + ? >= total_urls
                       then 'completed' else status end,
         completed_at = case when status = 'in_progress' and items_completed + items_failed + ? >= total_urls
                             then now() else completed_at end
       where id = ?
       returning id, team_id, status, total_urls, items_completed, items_failed, number_retried, webhook,
                 created_at, completed_at`,
      [completed, failed, completed + failed, completed + failed, batchId],
    )) as unknown as BatchRow[];
    const batch = row!;
    const finished = old?.status === 'in_progress' && batch.status === 'completed';
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
