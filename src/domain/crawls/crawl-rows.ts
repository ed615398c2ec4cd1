import type { EntityManager } from '@mikro-orm/postgresql';
import type { ScrapeOptions } from '../scrapes/scrape.schema.js';

/** A crawl as a runner needs it: the request, the counters, the deadline. */
export interface ClaimedCrawl {
  id: string;
  teamId: string;
  startUrl: string;
  scopeUrl: string;
  maxPages: number;
  maxDepth: number | null;
  includeUrls: string[];
  excludeUrls: string[];
  includeExternal: boolean;
  includeSubdomain: boolean;
  searchQuery: string | null;
  topN: number | null;
  followRobotsTxt: boolean;
  options: ScrapeOptions;
  webhook: string | null;
  counters: CrawlCounters;
  frontierCount: number;
  deadlineAt: Date;
  createdAt: Date;
  /** Times a runner took the crawl, this one included. */
  runs: number;
}

/** The counters a crawl's progress is told by. */
export interface CrawlCounters {
  status: string;
  pagesCount: number;
  failedCount: number;
  blockedCount: number;
  externalCount: number;
  currentDepth: number;
}

/** A frontier row claimed for fetching. */
export interface FrontierRow {
  id: string;
  url: string;
  depth: number;
  seq: number;
  isExternal: boolean;
  /** Attempts including this one. */
  attempts: number;
}

export type Row = Record<string, unknown>;

export function toClaimedCrawl(r: Row): ClaimedCrawl {
  return {
    id: r.id as string,
    teamId: r.team_id as string,
    startUrl: r.start_url as string,
    scopeUrl: r.scope_url as string,
    maxPages: r.max_pages as number,
    maxDepth: (r.max_depth as number | null) ?? null,
    includeUrls: (r.include_urls as string[] | null) ?? [],
    excludeUrls: (r.exclude_urls as string[] | null) ?? [],
    includeExternal: r.include_external as boolean,
    includeSubdomain: r.include_subdomain as boolean,
    searchQuery: (r.search_query as string | null) ?? null,
    topN: (r.top_n as number | null) ?? null,
    followRobotsTxt: r.follow_robots_txt as boolean,
    options: (r.options as ScrapeOptions | null) ?? {},
    webhook: (r.webhook as string | null) ?? null,
    counters: toCounters(r),
    frontierCount: r.frontier_count as number,
    deadlineAt: new Date(r.deadline_at as string | Date),
    createdAt: new Date(r.created_at as string | Date),
    runs: r.runs as number,
  };
}

export function toCounters(r: Row): CrawlCounters {
  return {
    status: r.status as string,
    pagesCount: r.pages_count as number,
    failedCount: r.failed_count as number,
    blockedCount: r.blocked_count as number,
    externalCount: r.external_count as number,
    currentDepth: r.current_depth as number,
  };
}

export function toFrontierRow(r: Row): FrontierRow {
  return {
    id: r.id as string,
    url: r.url as string,
    depth: r.depth as number,
    seq: r.seq as number,
    isExternal: r.is_external as boolean,
    attempts: r.attempts as number,
  };
}

/** Runs SQL in the transaction `em` belongs to (raw SQL keeps each step a single statement). */
export function exec(em: EntityManager, sql: string, params: unknown[]): Promise<Row[]> {
  return em.getConnection().execute(sql, params, 'all', em.getTransactionContext());
}

export const COUNTER_COLUMNS = 'status, pages_count, failed_count, blocked_count, external_count, current_depth';
