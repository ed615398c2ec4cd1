import type { Orm } from '../../db/orm.js';
import { exec, toClaimedCrawl, toFrontierRow, type ClaimedCrawl, type FrontierRow, type Row } from './crawl-rows.js';

/**
 * A crawl is leased to one runner at a time: the runner claims it (FOR UPDATE SKIP LOCKED),
 * renews the lease while it works, and every write it makes is conditional on still holding it.
 * When a runner dies, its lease expires and the next runner to claim the crawl resumes it from
 * the frontier: URLs that were in flight go back to the queue, pages already recorded stay.
 */
export class CrawlLeases {
  constructor(
    private readonly orm: Orm,
    readonly leaseMs: number,
  ) {}

  /** Takes the oldest in-progress crawl nobody holds (or whose holder stopped renewing), if any. */
  claim(owner: string): Promise<ClaimedCrawl | null> {
    return this.orm.em.fork().transactional(async (em) => {
      const [row] = await exec(
        em,
        `update crawls set lease_owner = ?, lease_expires_at = now() + make_interval(secs => ?), runs = runs + 1
         where id = (select id from crawls
                     where status = 'in_progress' and (lease_owner is null or lease_expires_at < now())
                     order by created_at, id limit 1 for update skip locked)
         returning *`,
        [owner, this.leaseMs / 1000],
      );
      if (!row) return null;
      // The previous holder's in-flight URLs: never recorded, so fetched again.
      await exec(em, `update crawl_frontier set status = 'queued' where crawl_id = ? and status = 'running'`, [row.id]);
      return toClaimedCrawl(row);
    });
  }

  /** Renews the leases `owner` still holds; returns the crawl ids it no longer holds. */
  async heartbeat(owner: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.orm.em.getConnection().execute<{ id: string }[]>(
      `update crawls set lease_expires_at = now() + make_interval(secs => ?)
       where id in (?) and lease_owner = ? and status = 'in_progress' returning id`,
      [this.leaseMs / 1000, ids, owner],
    );
    const held = new Set(rows.map((r) => r.id));
    return ids.filter((id) => !held.has(id));
  }

  /** Gives a crawl back at once (graceful shutdown): the next runner resumes it without waiting for the lease. */
  release(owner: string, crawlId: string): Promise<void> {
    return this.orm.em.fork().transactional(async (em) => {
      const held = await exec(
        em,
        `update crawls set lease_owner = null, lease_expires_at = null
         where id = ? and lease_owner = ? and status = 'in_progress' returning id`,
        [crawlId, owner],
      );
      if (held.length === 0) return;
      await exec(
        em,
        `update crawl_frontier set status = 'queued', attempts = greatest(attempts - 1, 0)
         where crawl_id = ? and status = 'running'`,
        [crawlId],
      );
    });
  }

  /** Where the start URL (seq 0) ended, to say why a crawl found nothing. */
  async startRow(crawlId: string): Promise<{ status: string; message: string } | null> {
    const [row] = await this.orm.em
      .getConnection()
      .execute<{ status: string; error_message: string | null }[]>(
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
   * `max_depth` keeps do not depend on which fetch finished first.
   */
  async claimTargets(owner: string, crawlId: string, max: number): Promise<FrontierRow[]> {
    if (max <= 0) return [];
    const rows = await this.orm.em.getConnection().execute<Row[]>(
      `update crawl_frontier set status = 'running', attempts = attempts + 1
       where id in (select id from crawl_frontier where crawl_id = ? and status = 'queued'
                      and depth <= (select min(depth) from crawl_frontier
                                    where crawl_id = ? and status in ('queued', 'running'))
                    order by depth, seq limit ? for update skip locked)
         and exists (select 1 from crawls where id = ? and lease_owner = ? and status = 'in_progress')
       returning id, url, depth, seq, is_external, attempts`,
      [crawlId, crawlId, max, crawlId, owner],
    );
    return rows.map(toFrontierRow).sort((a, b) => a.depth - b.depth || a.seq - b.seq);
  }
}
