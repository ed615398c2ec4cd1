import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { PAGE_INSERT_COLUMNS, PAGE_INSERT_VALUES, pageInsertParams } from '../pages/page-row.js';
import type { Page } from '../pages/page.entity.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';

export interface QueueSettings {
  leaseMs: number;
  /** Items running against one host at once, across every worker. */
  hostConcurrency: number;
  maxAttempts: number;
  retryBaseMs: number;
}

export interface ClaimedItem {
  id: string;
  batchId: string;
  teamId: string;
  url: string;
  host: string;
  retrieveId: string;
  /** Attempts including this one. */
  attempts: number;
}

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
 * Postgres is the queue: batch items are claimed with FOR UPDATE SKIP LOCKED and held by a
 * lease that the worker renews. Every step is conditional on still holding the lease, so an
 * item ends exactly once even when a worker dies and its items are claimed again. The
 * transaction that ends the last item completes the batch and writes its webhook event.
 */
export class BatchQueue {
  constructor(
    private readonly orm: Orm,
    readonly settings: QueueSettings,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Claims up to `max` due items for `owner`, keeping each host under its concurrency cap. */
  async claim(owner: string, max: number): Promise<ClaimedItem[]> {
    if (max <= 0) return [];
    const conn = this.orm.em.getConnection();
    const running = await conn.execute<{ host: string; n: number }[]>(
      `select host, count(*)::int as n from batch_items where status = 'running' group by host`,
    );
    const load = new Map(running.map((r) => [r.host, r.n]));
    const candidates = await conn.execute<{ id: string; host: string }[]>(
      `select id, host from batch_items where status = 'queued' and run_at <= now()
       order by run_at, seq limit ?`,
      [Math.max(max * 4, 64)],
    );
    const chosen: string[] = [];
    for (const c of candidates) {
      if (chosen.length >= max) break;
      const n = load.get(c.host) ?? 0;
      if (n >= this.settings.hostConcurrency) continue;
      load.set(c.host, n + 1);
      chosen.push(c.id);
    }
    if (chosen.length === 0) return [];
    const rows = await conn.execute<Record<string, unknown>[]>(
      `update batch_items set status = 'running', attempts = attempts + 1, lease_owner = ?,
         lease_expires_at = now() + make_interval(secs => ?)
       where id in (select id from batch_items where id in (?) and status = 'queued' for update skip locked)
       returning id, batch_id, team_id, url, host, retrieve_id, attempts`,
      [owner, this.settings.leaseMs / 1000, chosen],
    );
    return rows.map((r) => ({
      id: r.id as string,
      batchId: r.batch_id as string,
      teamId: r.team_id as string,
      url: r.url as string,
      host: r.host as string,
      retrieveId: r.retrieve_id as string,
      attempts: r.attempts as number,
    }));
  }

  /** Renews the leases of items `owner` still holds; returns the ids it no longer holds. */
  async heartbeat(owner: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.orm.em.getConnection().execute<{ id: string }[]>(
      `update batch_items set lease_expires_at = now() + make_interval(secs => ?)
       where id in (?) and status = 'running' and lease_owner = ? returning id`,
      [this.settings.leaseMs / 1000, ids, owner],
    );
    const held = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !held.has(id));
  }

  /** Records a fetched page as the item's result; null when the lease was lost meanwhile. */
  complete(owner: string, item: ClaimedItem, page: Page): Promise<BatchOutcome | null> {
    return this.orm.em.fork().transactional(async (em) => {
      const ended = await this.endItem(em, owner, item.id, 'completed', null);
      if (!ended) return null;
      await this.exec(
        em,
        `insert into pages (${PAGE_INSERT_COLUMNS}) values (${PAGE_INSERT_VALUES}) on conflict (id) do nothing`,
        pageInsertParams(page),
      );
      return this.countEnded(em, item.batchId, 1, 0);
    });
  }

  /** Ends the item as failed with `error`; null when the lease was lost meanwhile. */
  fail(
    owner: string | null,
    item: Pick<ClaimedItem, 'id' | 'batchId'>,
    error: { code: string; message: string },
  ): Promise<BatchOutcome | null> {
    return this.orm.em.fork().transactional(async (em) => {
      const ended = await this.endItem(em, owner, item.id, 'failed', error);
      if (!ended) return null;
      return this.countEnded(em, item.batchId, 0, 1);
    });
  }

  /** Puts the item back in the queue after a retryable failure, with exponential backoff. */
  async retryLater(owner: string, item: ClaimedItem, error: { code: string; message: string }): Promise<boolean> {
    const delayMs = this.settings.retryBaseMs * 4 ** (item.attempts - 1) * (0.8 + Math.random() * 0.4);
    return this.orm.em.fork().transactional(async (em) => {
      const rows = await this.exec(
        em,
        `update batch_items set status = 'queued', lease_owner = null, lease_expires_at = null,
           run_at = now() + make_interval(secs => ?), error_code = ?, error_message = ?
         where id = ? and status = 'running' and lease_owner = ? returning id`,
        [delayMs / 1000, error.code, error.message.slice(0, 2000), item.id, owner],
      );
      if (rows.length === 0) return false;
      await this.exec(em, 'update batches set number_retried = number_retried + 1 where id = ?', [item.batchId]);
      return true;
    });
  }

  /** Gives items back without counting the attempt (graceful shutdown). */
  async release(owner: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.orm.em.getConnection().execute(
      `update batch_items set status = 'queued', lease_owner = null, lease_expires_at = null,
         attempts = greatest(attempts - 1, 0), run_at = now()
       where id in (?) and status = 'running' and lease_owner = ?`,
      [ids, owner],
    );
  }

  /**
   * Returns items whose worker stopped renewing their lease to the queue; an item whose lease
   * expired on its last attempt fails (`worker_lost`), so a page that kills workers cannot loop.
   */
  async reap(): Promise<{ requeued: number; failed: BatchOutcome[] }> {
    const conn = this.orm.em.getConnection();
    const requeued = await conn.execute<{ id: string }[]>(
      `update batch_items set status = 'queued', lease_owner = null, lease_expires_at = null, run_at = now()
       where id in (select id from batch_items where status = 'running' and lease_expires_at < now() and attempts < ?
                    for update skip locked)
       returning id`,
      [this.settings.maxAttempts],
    );
    const exhausted = await conn.execute<{ id: string; batch_id: string }[]>(
      `select id, batch_id from batch_items where status = 'running' and lease_expires_at < now() and attempts >= ? limit 500`,
      [this.settings.maxAttempts],
    );
    const failed: BatchOutcome[] = [];
    for (const row of exhausted) {
      const outcome = await this.fail(
        null,
        { id: row.id, batchId: row.batch_id },
        {
          code: 'worker_lost',
          message: `the worker processing this item stopped responding on each of ${this.settings.maxAttempts} attempts`,
        },
      );
      if (outcome) failed.push(outcome);
    }
    return { requeued: requeued.length, failed };
  }

  /** Moves a running item to its final state if `owner` still holds it (any expired lease when owner is null). */
  private async endItem(
    em: EntityManager,
    owner: string | null,
    id: string,
    status: 'completed' | 'failed',
    error: { code: string; message: string } | null,
  ): Promise<boolean> {
    const ownerClause = owner === null ? 'lease_expires_at < now()' : 'lease_owner = ?';
    const rows = await this.exec(
      em,
      `update batch_items set status = ?, lease_owner = null, lease_expires_at = null, finished_at = now(),
         error_code = ?, error_message = ?
       where id = ? and status = 'running' and ${ownerClause} returning id`,
      [status, error?.code ?? null, error?.message.slice(0, 2000) ?? null, id, ...(owner === null ? [] : [owner])],
    );
    return rows.length > 0;
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
    const [old] = await this.exec(em, 'select status from batches where id = ? for update', [batchId]);
    const [row] = (await this.exec(
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

  private exec(em: EntityManager, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    return em.getConnection().execute(sql, params, 'all', em.getTransactionContext());
  }
}
