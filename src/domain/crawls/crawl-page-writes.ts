import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, execLarge, type Row } from '../../db/sql.js';
import { HOLDS_SQL } from '../../workers/queue/job-claim.js';
import { PAGE_INSERT_COLUMNS, PAGE_INSERT_VALUES, pageInsertParams } from '../pages/page-row.js';
import type { Page } from '../pages/page.entity.js';
import type { NewFrontierRow, PageRecord } from './crawl-records.js';
import { COUNTER_COLUMNS } from './crawl-rows.js';

/**
 * The statements that write a crawled page: the page row, the URLs it adds to the frontier, and
 * all of it with the lease check and the counters in one statement (CrawlRecords decides which).
 */

/**
 * Records a page fetched where it was asked for in one statement (no transaction around several):
 * every part runs only if `owner` holds the crawl's job and the URL is still its running row. The
 * rows are locked in the order the transactional path locks them (the job, the crawl, the
 * frontier row), so the two paths cannot deadlock each other. Every write joins the locked crawl
 * row (`crawl`), so the lock is taken, and the counters read, before anything touches the row
 * (see BatchLedger's countSql). Returns the crawl's counters, or nothing when the lease was lost
 * or the row no longer runs.
 */
export async function recordPlainPage(
  em: EntityManager,
  owner: string,
  crawlId: string,
  record: PageRecord,
): Promise<Row | null> {
  const links = record.links.map((l, i) => ({
    id: l.id,
    url_key: l.key,
    url: l.url,
    depth: l.depth,
    n: i + 1,
    is_external: l.isExternal,
    status: l.status,
  }));
  const [row] = await execLarge(
    em,
    `with held as (
         ${HOLDS_SQL}
       ), crawl as (
         select pages_count, frontier_count, greatest(0, least(?, ? - frontier_count)) as taken
         from crawls where id = ? and status = 'in_progress' and exists (select 1 from held) for update
       ), done as (
         update crawl_frontier f set status = 'done', page_seq = crawl.pages_count + 1, final_url = ?,
           is_external = ?, error_code = null, error_message = null
         from crawl where f.id = ? and f.status = 'running' returning f.id
       ), page as (
         insert into pages (${PAGE_INSERT_COLUMNS}) select ${PAGE_INSERT_VALUES} where exists (select 1 from done)
         ${PAGE_UPSERT}
       ), links as (
         insert into crawl_frontier (id, crawl_id, url_key, url, depth, seq, is_external, status, attempts)
         select r.id, ?, r.url_key, r.url, r.depth, crawl.frontier_count + r.n, r.is_external, r.status, 0
         from crawl, jsonb_to_recordset(?::jsonb) as r(id text, url_key text, url text, depth int, n int, is_external boolean, status text)
         where r.n <= crawl.taken and exists (select 1 from done)
         on conflict (crawl_id, url_key) do nothing returning is_external
       )
       update crawls c set pages_count = c.pages_count + 1, current_depth = greatest(c.current_depth, ?),
         frontier_count = crawl.frontier_count + crawl.taken,
         external_count = c.external_count + (select count(*) from links where is_external),
         scope_url = coalesce(?, c.scope_url)
       from crawl where c.id = ? and exists (select 1 from done)
       returning ${prefixed('c', COUNTER_COLUMNS)}`,
    [
      ...[crawlId, owner, links.length, record.frontierCap, crawlId],
      ...[record.page.finalUrl, record.isExternal, record.targetId],
      ...pageInsertParams(record.page),
      ...[crawlId, JSON.stringify(links), record.depth, record.scopeUrl ?? null, crawlId],
    ],
  );
  return row ?? null;
}

/** A page fetched again (a runner took the crawl over before the first fetch was recorded) replaces its row. */
const PAGE_UPSERT = `on conflict (id) do update set final_url = excluded.final_url, status_code = excluded.status_code,
  formats = excluded.formats, page_metadata = excluded.page_metadata, links = excluded.links,
  actions_output = excluded.actions_output, search_vector = excluded.search_vector`;

export async function insertPage(em: EntityManager, page: Page): Promise<void> {
  await execLarge(
    em,
    `insert into pages (${PAGE_INSERT_COLUMNS}) values (${PAGE_INSERT_VALUES}) ${PAGE_UPSERT}`,
    pageInsertParams(page),
  );
}

/** `a, b` as `t.a, t.b`. */
function prefixed(table: string, columns: string): string {
  return columns
    .split(',')
    .map((c) => `${table}.${c.trim()}`)
    .join(', ');
}

/**
 * Inserts the URLs the crawl has not seen yet, seq continuing after `after` (a URL seen before
 * keeps its row). Returns how many new rows are external.
 */
export async function insertLinks(
  em: EntityManager,
  crawlId: string,
  links: NewFrontierRow[],
  after: number,
): Promise<number> {
  if (links.length === 0) return 0;
  const rows = links.map((l, i) => ({
    id: l.id,
    url_key: l.key,
    url: l.url,
    depth: l.depth,
    seq: after + i + 1,
    is_external: l.isExternal,
    status: l.status,
  }));
  const inserted = await exec(
    em,
    `insert into crawl_frontier (id, crawl_id, url_key, url, depth, seq, is_external, status, attempts)
     select r.id, ?, r.url_key, r.url, r.depth, r.seq, r.is_external, r.status, 0
     from jsonb_to_recordset(?::jsonb) as r(id text, url_key text, url text, depth int, seq int, is_external boolean, status text)
     on conflict (crawl_id, url_key) do nothing returning is_external`,
    [crawlId, JSON.stringify(rows)],
  );
  return inserted.filter((r) => r.is_external === true).length;
}
