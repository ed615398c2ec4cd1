import type { Orm } from '../db/orm.js';

/** Which kinds of background work the database holds for job threads now or soon. */
export interface PendingWork {
  /** Batch items queued (due within the horizon) or running. */
  batch: boolean;
  /** Crawls in progress. */
  crawl: boolean;
  /** Webhook events due within the horizon, or being delivered. */
  webhook: boolean;
}

/**
 * One cheap query (each part an index probe) that tells the supervisor which job threads have
 * anything to do. It errs on the side of "yes": rows being worked on by another process count,
 * because their leases can expire and fall to this one. `horizonMs` counts work due that soon
 * (retries waiting out a backoff) as pending, so a thread is not stopped just before it is due.
 */
export async function pendingWork(orm: Orm, horizonMs: number): Promise<PendingWork> {
  const horizon = `${Math.max(0, Math.round(horizonMs))} milliseconds`;
  const rows = await orm.em.getConnection().execute<{ batch: boolean; crawl: boolean; webhook: boolean }[]>(
    `select
       exists (select 1 from batch_items where status = 'running')
         or exists (select 1 from batch_items where status = 'queued' and run_at <= now() + ?::interval) as batch,
       exists (select 1 from crawls where status = 'in_progress') as crawl,
       exists (select 1 from webhook_events where status = 'delivering')
         or exists (select 1 from webhook_events where status = 'pending' and next_attempt_at <= now() + ?::interval)
         as webhook`,
    [horizon, horizon],
    'all',
  );
  const row = rows[0];
  return { batch: Boolean(row?.batch), crawl: Boolean(row?.crawl), webhook: Boolean(row?.webhook) };
}
