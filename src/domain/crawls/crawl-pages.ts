import type { Orm } from '../../db/orm.js';
import { idSuffix } from '../../ids.js';
import { rankByQuery } from '../../url/rank.js';
import type { Crawl } from './crawl.entity.js';

/** One page of a crawl as listed. */
export interface CrawlPageEntry {
  /** `page_…`. */
  id: string;
  retrieveId: string;
  /** Where the content came from (after redirects). */
  url: string;
  isExternal: boolean;
  depth: number;
}

export interface CrawlPagesPage {
  crawl: Crawl;
  pages: CrawlPageEntry[];
  /** Pages in the whole listing (all of the crawl's, or those matching search_query). */
  total: number;
  nextCursor: number | null;
  externalUrls: string[];
  failedUrls: string[];
}

/** external_urls and failed_urls list this many URLs at most (their counts are on the crawl). */
export const LISTED_URLS_MAX = 1000;

interface PageRow {
  id: string;
  url: string;
  final_url: string | null;
  is_external: boolean;
  depth: number;
  title?: string | null;
}

/**
 * Reads a crawl's pages in the order they were recorded (page_seq), so an offset cursor stays
 * valid while the crawl adds pages. With search_query: only pages whose URL or title match
 * the query's words, most relevant first (BM25, the ranking of maps and top_n).
 */
export class CrawlPagesReader {
  constructor(private readonly orm: Orm) {}

  async read(crawl: Crawl, q: { offset: number; limit: number; searchQuery: string | null }): Promise<CrawlPagesPage> {
    const conn = this.orm.em.getConnection();
    let rows: PageRow[];
    let total: number;
    if (q.searchQuery === null) {
      rows = await conn.execute<PageRow[]>(
        `select id, url, final_url, is_external, depth from crawl_frontier
         where crawl_id = ? and status = 'done' order by page_seq limit ? offset ?`,
        [crawl.id, q.limit, q.offset],
      );
      total = Math.max(crawl.pagesCount, q.offset + rows.length);
    } else {
      const all = await conn.execute<PageRow[]>(
        `select f.id, f.url, f.final_url, f.is_external, f.depth, p.page_metadata->>'title' as title
         from crawl_frontier f left join pages p on p.id = substr(f.id, 6)
         where f.crawl_id = ? and f.status = 'done' order by f.page_seq`,
        [crawl.id],
      );
      const ranked = rankByQuery(
        all.map((row) => ({ url: row.final_url ?? row.url, text: row.title ?? '', row })),
        q.searchQuery,
        undefined,
        { onlyMatches: true },
      );
      total = ranked.length;
      rows = ranked.slice(q.offset, q.offset + q.limit).map((r) => r.item.row);
    }
    const next = q.offset + rows.length;
    return {
      crawl,
      pages: rows.map(toEntry),
      total,
      nextCursor: rows.length > 0 && next < total ? next : null,
      ...(await this.listedUrls(crawl.id)),
    };
  }

  private async listedUrls(crawlId: string): Promise<{ externalUrls: string[]; failedUrls: string[] }> {
    const conn = this.orm.em.getConnection();
    const external = await conn.execute<{ url: string }[]>(
      `select coalesce(final_url, url) as url from crawl_frontier
       where crawl_id = ? and (status = 'external' or (is_external and status = 'done')) order by seq limit ?`,
      [crawlId, LISTED_URLS_MAX],
    );
    const failed = await conn.execute<{ url: string }[]>(
      `select url from crawl_frontier where crawl_id = ? and status = 'failed' order by seq limit ?`,
      [crawlId, LISTED_URLS_MAX],
    );
    return { externalUrls: external.map((r) => r.url), failedUrls: failed.map((r) => r.url) };
  }
}

function toEntry(row: PageRow): CrawlPageEntry {
  return {
    id: row.id,
    retrieveId: idSuffix('page', row.id) ?? row.id,
    url: row.final_url ?? row.url,
    isExternal: row.is_external,
    depth: row.depth,
  };
}
