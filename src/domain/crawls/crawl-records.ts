import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { Page } from '../pages/page.entity.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { CrawlStopReason } from './crawl.entity.js';
import { COUNTER_COLUMNS, exec, toCounters, type CrawlCounters, type Row } from './crawl-rows.js';
import { insertLinks, insertPage, recordPlainPage } from './crawl-page-writes.js';

/** A URL a page linked to, ready to enter the frontier. */
export interface NewFrontierRow {
  id: string;
  key: string;
  url: string;
  depth: number;
  isExternal: boolean;
  /** `queued` (to be fetched) or `external` (only listed). */
  status: 'queued' | 'external';
}

export interface PageRecord {
  targetId: string;
  depth: number;
  /** A page off the site (include_external, or a redirect that left it). */
  isExternal: boolean;
  page: Page;
  /** Where a redirect ended, when that is another page than the one asked for. */
  redirect: { key: string; url: string; isExternal: boolean } | null;
  links: NewFrontierRow[];
  /** Frontier positions (seq) the crawl may use at most: links past it are dropped. */
  frontierCap: number;
  /** The start page redirected to another site: the crawl keeps to that one from now on. */
  scopeUrl?: string;
}

export type RecordOutcome = { outcome: 'recorded' | 'duplicate'; counters: CrawlCounters };

/** Why a URL ended without a page. */
export type UrlEnd =
  | { status: 'failed'; code: string; message: string }
  | { status: 'blocked'; code: 'robots_disallowed'; message: string }
  | { status: 'external'; finalUrl: string };

export interface FinishedCrawl {
  counters: CrawlCounters;
  teamId: string;
}

const COUNTER_OF: Record<UrlEnd['status'], string> = {
  failed: 'failed_count',
  blocked: 'blocked_count',
  external: 'external_count',
};

/**
 * Every write a runner makes for a crawl: one transaction per outcome, each starting by
 * checking that the runner still holds the crawl's job (so a runner that lost its crawl
 * records nothing) and locking the crawl row, and ending with the crawl's counters. Finishing
 * the crawl completes its job and writes its `crawl.completed` webhook event in the same
 * transaction.
 */
export class CrawlRecords {
  constructor(
    private readonly orm: Orm,
    private readonly queue: JobQueue,
    private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * Records a fetched page and the URLs it adds to the frontier; null when the lease was lost.
   * A page that is not a redirect (nearly all) is one statement; a redirect, which may claim or
   * lose to another row, takes a transaction of several.
   */
  recordPage(owner: string, crawlId: string, record: PageRecord): Promise<RecordOutcome | null> {
    return record.redirect ? this.recordRedirected(owner, crawlId, record) : this.recordPlain(owner, crawlId, record);
  }

  /** `recordPage` for a page fetched where it was asked for: one statement (`recordPlainPage`). */
  private async recordPlain(owner: string, crawlId: string, record: PageRecord): Promise<RecordOutcome | null> {
    const row = await recordPlainPage(this.orm.em.fork(), owner, crawlId, record);
    return row ? { outcome: 'recorded', counters: toCounters(row) } : null;
  }

  /** `recordPage` for a page a redirect brought: the page it landed on is claimed first. */
  private recordRedirected(owner: string, crawlId: string, record: PageRecord): Promise<RecordOutcome | null> {
    return this.orm.em.fork().transactional(async (em) => {
      const crawl = await this.lockHeld(em, owner, crawlId);
      if (!crawl) return null;
      let frontierCount = crawl.frontier_count as number;
      const landed = await this.claimRedirectTarget(em, crawlId, record, frontierCount + 1);
      if (landed === 'taken') return this.endAsDuplicate(em, crawlId, record);
      if (landed === 'inserted') frontierCount++;
      const pageSeq = (crawl.pages_count as number) + 1;
      const done = await exec(
        em,
        `update crawl_frontier set status = 'done', page_seq = ?, final_url = ?, is_external = ?,
           error_code = null, error_message = null
         where id = ? and status = 'running' returning id`,
        [pageSeq, record.page.finalUrl, record.isExternal, record.targetId],
      );
      if (done.length === 0) return null;
      await insertPage(em, record.page);
      const links = record.links.slice(0, Math.max(0, record.frontierCap - frontierCount));
      const external = await insertLinks(em, crawlId, links, frontierCount);
      const [row] = await exec(
        em,
        `update crawls set pages_count = pages_count + 1, current_depth = greatest(current_depth, ?),
           frontier_count = ?, external_count = external_count + ?, scope_url = coalesce(?, scope_url)
         where id = ? returning ${COUNTER_COLUMNS}`,
        [record.depth, frontierCount + links.length, external, record.scopeUrl ?? null, crawlId],
      );
      return { outcome: 'recorded', counters: toCounters(row!) };
    });
  }

  /** Ends a URL without a page (failed, blocked by robots.txt, redirected off the site); null when the lease was lost. */
  endUrl(owner: string, crawlId: string, targetId: string, end: UrlEnd): Promise<CrawlCounters | null> {
    return this.orm.em.fork().transactional(async (em) => {
      if (!(await this.lockHeld(em, owner, crawlId))) return null;
      const code = end.status === 'external' ? null : end.code;
      const message = end.status === 'external' ? null : end.message.slice(0, 2000);
      const finalUrl = end.status === 'external' ? end.finalUrl : null;
      const ended = await exec(
        em,
        `update crawl_frontier set status = ?, error_code = ?, error_message = ?, final_url = coalesce(?, final_url)
         where id = ? and status = 'running' returning id`,
        [end.status, code, message, finalUrl, targetId],
      );
      const counter = COUNTER_OF[end.status];
      const [row] = await exec(
        em,
        `update crawls set ${counter} = ${counter} + ? where id = ? returning ${COUNTER_COLUMNS}`,
        [ended.length, crawlId],
      );
      return toCounters(row!);
    });
  }

  /** Completes the crawl (once) and writes its crawl.completed event; null when the lease was lost. */
  finish(
    owner: string,
    crawlId: string,
    reason: CrawlStopReason,
    warning: string | null,
  ): Promise<FinishedCrawl | null> {
    return this.orm.em.fork().transactional(async (em) => {
      if (!(await this.queue.complete(em, { id: crawlId, owner }))) return null;
      return this.finishIn(em, crawlId, reason, warning);
    });
  }

  /**
   * Completes the crawl in `em`'s transaction (the crawl job's `onFailed` does, when the workers
   * running it kept dying): counters as they stand, URLs in flight back to queued.
   */
  async finishIn(
    em: EntityManager,
    crawlId: string,
    reason: CrawlStopReason,
    warning: string | null,
  ): Promise<FinishedCrawl | null> {
    const [row] = await exec(
      em,
      `update crawls set status = 'completed', completed_at = now(), stop_reason = ?, warning = coalesce(?, warning)
       where id = ? and status = 'in_progress' returning *`,
      [reason, warning, crawlId],
    );
    if (!row) return null;
    await exec(em, `update crawl_frontier set status = 'queued' where crawl_id = ? and status = 'running'`, [crawlId]);
    if (row.webhook) {
      await this.outbox.enqueue(em, {
        teamId: row.team_id as string,
        type: 'crawl.completed',
        resourceId: crawlId,
        url: row.webhook as string,
        data: completedEventData(row),
      });
    }
    return { counters: toCounters(row), teamId: row.team_id as string };
  }

  /** Whether the crawl's job was cancelled (a runner whose record was refused asks). */
  wasCancelled(crawlId: string): Promise<boolean> {
    return this.queue.wasCancelled(crawlId);
  }

  /** Locks the crawl row if `owner` holds its job's lease; null otherwise. */
  private async lockHeld(em: EntityManager, owner: string, crawlId: string): Promise<Row | null> {
    if (!(await this.queue.holds(em, crawlId, owner))) return null;
    const [row] = await exec(
      em,
      `select pages_count, frontier_count from crawls where id = ? and status = 'in_progress' for update`,
      [crawlId],
    );
    return row ?? null;
  }

  /**
   * A redirect landed on `record.redirect`: that page is this row's from now on. `inserted` when
   * the crawl had not seen it, `claimed` when it was only queued (it will not be fetched again),
   * `taken` when it is (being) fetched already: then this row is a duplicate.
   */
  private async claimRedirectTarget(
    em: EntityManager,
    crawlId: string,
    record: PageRecord,
    seq: number,
  ): Promise<'inserted' | 'claimed' | 'taken'> {
    const target = record.redirect!;
    const inserted = await exec(
      em,
      `insert into crawl_frontier (id, crawl_id, url_key, url, depth, seq, is_external, status, attempts)
       values (?, ?, ?, ?, ?, ?, ?, 'alias', 0) on conflict (crawl_id, url_key) do nothing returning id`,
      [`${record.targetId}_alias`, crawlId, target.key, target.url, record.depth, seq, target.isExternal],
    );
    if (inserted.length > 0) return 'inserted';
    const claimed = await exec(
      em,
      `update crawl_frontier set status = 'alias' where crawl_id = ? and url_key = ? and status = 'queued' returning id`,
      [crawlId, target.key],
    );
    return claimed.length > 0 ? 'claimed' : 'taken';
  }

  private async endAsDuplicate(em: EntityManager, crawlId: string, record: PageRecord): Promise<RecordOutcome | null> {
    const ended = await exec(
      em,
      `update crawl_frontier set status = 'duplicate', final_url = ? where id = ? and status = 'running' returning id`,
      [record.page.finalUrl, record.targetId],
    );
    if (ended.length === 0) return null;
    const [row] = await exec(em, `select ${COUNTER_COLUMNS} from crawls where id = ?`, [crawlId]);
    return { outcome: 'duplicate', counters: toCounters(row!) };
  }
}

/** crawl.completed `data` (spec, "Crawl"): start_epoch in epoch milliseconds. crawl.cancelled has the same. */
export function completedEventData(row: Row): Record<string, unknown> {
  const created = new Date(row.created_at as string | Date);
  return {
    id: row.id,
    object: 'crawl',
    status: row.status,
    start_url: row.start_url,
    urls_count: row.pages_count,
    max_pages: row.max_pages,
    max_depth: row.max_depth ?? null,
    actual_max_depth: row.current_depth,
    start_epoch: created.getTime(),
    start_date: created.toISOString(),
  };
}
