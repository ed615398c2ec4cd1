import { EntitySchema } from '@mikro-orm/core';
import { Crawl } from './crawl.entity.js';

/**
 * queued → running → done | failed | blocked (robots.txt); a retryable failure goes back to queued.
 * Rows never fetched: `external` (outside the site, listed in `external_urls`), `alias` (the
 * target of a redirect another row already fetched), `duplicate` (a redirect landed on a page
 * the crawl already has).
 */
export type FrontierStatus = 'queued' | 'running' | 'done' | 'failed' | 'blocked' | 'external' | 'alias' | 'duplicate';

/**
 * One URL a crawl has seen. `(crawl_id, url_key)` is unique (the dedupe key of
 * src/url/normalize.ts), which makes the table the crawl's visited set as well as its queue.
 * A `done` row is a crawl page: its id is the page id, the suffix of its id the retrieve_id.
 */
export class CrawlFrontierEntry {
  /** `page_<retrieve_id>`. */
  id!: string;
  crawlId!: string;
  urlKey!: string;
  url!: string;
  depth!: number;
  /** Discovery order within the crawl: claims go by depth, then seq (breadth first). */
  seq!: number;
  isExternal = false;
  status: FrontierStatus = 'queued';
  attempts = 0;
  /** Order in which pages were recorded (1, 2, ...): the pages listing and its cursor follow it. */
  pageSeq: number | null = null;
  finalUrl: string | null = null;
  errorCode: string | null = null;
  errorMessage: string | null = null;
}

export const CrawlFrontierSchema = new EntitySchema<CrawlFrontierEntry>({
  class: CrawlFrontierEntry,
  tableName: 'crawl_frontier',
  indexes: [
    { name: 'crawl_frontier_crawl_id_status_depth_seq_index', properties: ['crawlId', 'status', 'depth', 'seq'] },
    { name: 'crawl_frontier_crawl_id_page_seq_index', properties: ['crawlId', 'pageSeq'] },
  ],
  uniques: [{ name: 'crawl_frontier_crawl_id_url_key_unique', properties: ['crawlId', 'urlKey'] }],
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    crawlId: {
      kind: 'm:1',
      entity: () => Crawl,
      mapToPk: true,
      fieldName: 'crawl_id',
      deleteRule: 'cascade',
      columnType: 'text',
    },
    urlKey: { type: 'string', columnType: 'text' },
    url: { type: 'string', columnType: 'text' },
    depth: { type: 'integer' },
    seq: { type: 'integer' },
    isExternal: { type: 'boolean', default: false },
    status: { type: 'string', columnType: 'text', default: 'queued' },
    attempts: { type: 'integer', default: 0 },
    pageSeq: { type: 'integer', nullable: true },
    finalUrl: { type: 'text', nullable: true },
    errorCode: { type: 'text', nullable: true },
    errorMessage: { type: 'text', nullable: true },
  },
});
