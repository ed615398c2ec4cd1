import type { EntityManager } from '@mikro-orm/postgresql';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { completedEventData } from './crawl-records.js';
import { exec, type Row } from './crawl-rows.js';

/** The crawl row a cancel leaves (`crawls.*`), and whether this cancel is what ended it. */
export interface CancelledCrawl {
  row: Row & { status: string };
  cancelledNow: boolean;
}

/**
 * Cancels a crawl in progress, in `em`'s transaction: its job is cancelled first (locking it as
 * a runner's writes do before they lock the crawl, so a page being recorded right now is
 * recorded before, or never), then the crawl ends `cancelled` (`stop_reason` too) with the
 * counters it had, URLs in flight go back to queued as when a crawl completes, and its
 * `crawl.cancelled` event goes to the outbox. Null when the team has no such crawl; a crawl
 * that is not in progress is left as it is (`cancelledNow` false).
 */
export async function cancelCrawl(
  em: EntityManager,
  deps: { queue: JobQueue; outbox: WebhookOutbox },
  teamId: string,
  crawlId: string,
): Promise<CancelledCrawl | null> {
  const [found] = await exec(em, 'select status from crawls where id = ? and team_id = ?', [crawlId, teamId]);
  if (!found) return null;
  if (found.status === 'in_progress') {
    await deps.queue.cancel(em, [crawlId]);
    const [row] = await exec(
      em,
      `update crawls set status = 'cancelled', stop_reason = 'cancelled', completed_at = now()
       where id = ? and status = 'in_progress' returning *`,
      [crawlId],
    );
    if (row) {
      await exec(em, `update crawl_frontier set status = 'queued' where crawl_id = ? and status = 'running'`, [
        crawlId,
      ]);
      if (row.webhook) {
        await deps.outbox.enqueue(em, {
          teamId,
          type: 'crawl.cancelled',
          resourceId: crawlId,
          url: row.webhook as string,
          data: completedEventData(row),
        });
      }
      return { row: row as CancelledCrawl['row'], cancelledNow: true };
    }
  }
  // Not in progress (or its runner completed it while this looked): as it is now.
  const [row] = await exec(em, 'select * from crawls where id = ?', [crawlId]);
  return { row: row as CancelledCrawl['row'], cancelledNow: false };
}
