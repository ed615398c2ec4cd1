import { EntitySchema } from '@mikro-orm/core';
import { Team } from '../auth/team.entity.js';
import type { ScrapeOptions } from '../scrapes/scrape.schema.js';

/**
 * in_progress → completed: a crawl ends `completed` with whatever it reached, unless its client
 * cancelled it first (`cancelled`, with what it had reached then).
 */
export type CrawlStatus = 'in_progress' | 'completed' | 'cancelled';

/**
 * Why a crawl ended: `max_pages` / `timeout` (a limit), `exhausted` (nothing left to fetch),
 * `robots_unreachable` (robots.txt answered 5xx/429: RFC 9309 says the site is disallowed),
 * `robots_disallowed` (robots.txt disallows the start URL), `start_failed` (the start page
 * could not be fetched), `engine_error` (the crawl engine could not run here, e.g. no browser),
 * `cancelled` (its client cancelled it).
 */
export type CrawlStopReason =
  | 'max_pages'
  | 'timeout'
  | 'exhausted'
  | 'robots_unreachable'
  | 'robots_disallowed'
  | 'start_failed'
  | 'engine_error'
  | 'cancelled';

/** A crawl: what was asked, how far it got, and how often a runner took it. Its URLs are in `crawl_frontier`. */
export class Crawl {
  id!: string;
  teamId!: string;
  status: CrawlStatus = 'in_progress';
  /** The start URL, normalised. */
  startUrl!: string;
  /** The site the crawl keeps to: the start URL, or where the start page redirected. */
  scopeUrl!: string;
  maxPages!: number;
  /** Null: no depth limit (max_pages and the timeout still bound the crawl). */
  maxDepth: number | null = null;
  includeUrls: string[] = [];
  excludeUrls: string[] = [];
  includeExternal = false;
  includeSubdomain = false;
  searchQuery: string | null = null;
  topN: number | null = null;
  followRobotsTxt = true;
  timeoutSeconds!: number;
  /** scrape_options every page runs with (formats, parser, ...). */
  options: ScrapeOptions = {};
  webhook: string | null = null;
  pagesCount = 0;
  failedCount = 0;
  /** Distinct URLs outside the crawl's site that pages linked to. */
  externalCount = 0;
  /** URLs robots.txt did not let the crawl fetch. */
  blockedCount = 0;
  /** Frontier positions used (the last seq); bounded, so a page of endless links cannot grow it without end. */
  frontierCount = 0;
  /** The deepest page recorded so far (start page: 0). */
  currentDepth = 0;
  stopReason: CrawlStopReason | null = null;
  /** What the client should know about how the crawl ended (robots.txt, an unreachable start). */
  warning: string | null = null;
  /** Times a runner took the crawl (more than one: a runner died or stopped and another resumed). */
  runs = 0;
  deadlineAt!: Date;
  createdAt: Date = new Date();
  completedAt: Date | null = null;
}

export const CrawlSchema = new EntitySchema<Crawl>({
  class: Crawl,
  tableName: 'crawls',
  indexes: [{ name: 'crawls_team_id_created_at_index', properties: ['teamId', 'createdAt'] }],
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    teamId: {
      kind: 'm:1',
      entity: () => Team,
      mapToPk: true,
      fieldName: 'team_id',
      deleteRule: 'cascade',
      columnType: 'text',
    },
    status: { type: 'string', columnType: 'text', default: 'in_progress' },
    startUrl: { type: 'string', columnType: 'text' },
    scopeUrl: { type: 'string', columnType: 'text' },
    maxPages: { type: 'integer' },
    maxDepth: { type: 'integer', nullable: true },
    includeUrls: { type: 'json', columnType: 'jsonb' },
    excludeUrls: { type: 'json', columnType: 'jsonb' },
    includeExternal: { type: 'boolean', default: false },
    includeSubdomain: { type: 'boolean', default: false },
    searchQuery: { type: 'text', nullable: true },
    topN: { type: 'integer', nullable: true },
    followRobotsTxt: { type: 'boolean', default: true },
    timeoutSeconds: { type: 'integer' },
    options: { type: 'json', columnType: 'jsonb' },
    webhook: { type: 'text', nullable: true },
    pagesCount: { type: 'integer', default: 0 },
    failedCount: { type: 'integer', default: 0 },
    externalCount: { type: 'integer', default: 0 },
    blockedCount: { type: 'integer', default: 0 },
    frontierCount: { type: 'integer', default: 0 },
    currentDepth: { type: 'integer', default: 0 },
    stopReason: { type: 'text', nullable: true },
    warning: { type: 'text', nullable: true },
    runs: { type: 'integer', default: 0 },
    deadlineAt: { type: 'Date', columnType: 'timestamptz' },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
