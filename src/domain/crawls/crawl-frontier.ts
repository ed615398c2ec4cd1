import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import { toFrontierRow, type FrontierRow } from './crawl-rows.js';

/**
 * The crawl's own queue of URLs. A crawl is one job on the job queue, leased to one runner at a
 * time; the runner holding it claims URLs here. Every claim is conditional on still holding the
 * crawl's job, so a runner that lost its crawl claims nothing more.
 */
export class CrawlFrontier {
  constructor(private readonly orm: Orm) {}

  /** URLs a previous holder had in flight: never recorded, so fetched again by the new holder. */
  async requeueInFlight(crawlId: string): Promise<void> {
    await exec(
      this.orm.em.fork(),
      `update crawl_frontier set status = 'queued' where crawl_id = ? and status = 'running'`,
      [crawlId],
    );
  }

  /** Where the start URL (seq 0) ended, to say why a crawl found nothing. */
  async startRow(crawlId: string): Promise<{ status: string; message: string } | null> {
    const [row] = await exec<{ status: string; error_message: string | null }>(
      this.orm.em.fork(),
      `select status, error_message from crawl_frontier where crawl_id = ? and seq = 0 limit 1`,
      [crawlId],
    );
    return row ? { status: row.status, message: row.error_message ?? '' } : null;
  }

  /**
   * Claims up to `max` queued URLs while `owner` holds the crawl, breadth first and one depth at
   * a time: nothing deeper is claimed while a shallower URL is still queued or running. A page
   * reached both by a link and by a redirect from the level above is then always recorded at the
   * smaller depth (the redirect claims the queued row), so depths, `current_depth` and what
   * `max_depth` keeps do not depend on which fetch finished first. Only the crawl's holder
   * claims, one claim at a time: its rows need no row locks.
   */
  async claimTargets(owner: string, crawlId: string, max: number): Promise<FrontierRow[]> {
    if (max <= 0) return [];
    const rows = await exec(
      this.orm.em.fork(),
      `update crawl_frontier set status = 'running', attempts = attempts + 1
       where id in (select id from crawl_frontier where crawl_id = ? and status = 'queued'
                      and depth <= (select min(depth) from crawl_frontier
                                    where crawl_id = ? and status in ('queued', 'running'))
                    order by depth, seq limit ?)
         and exists (select 1 from jobs where id = ? and lease_owner = ? and status = 'running')
         and exists (select 1 from crawls where id = ? and status = 'in_progress')
       returning id, url, depth, seq, is_external, attempts`,
      [crawlId, crawlId, max, crawlId, owner, crawlId],
    );
    return rows.map(toFrontierRow).sort((a, b) => a.depth - b.depth || a.seq - b.seq);
  }
}
