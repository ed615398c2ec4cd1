import { epochSeconds } from '../shared/time.js';
import type { CrawlPageEntry } from './crawl-pages.js';
import type { Crawl, CrawlStatus, CrawlStopReason } from './crawl.entity.js';

/** A crawl as both transports show it (REST in the spec's snake_case, GraphQL as is). */
export interface CrawlView {
  id: string;
  status: CrawlStatus;
  /** Epoch seconds. */
  created: number;
  /** ISO 8601 UTC. */
  startDate: string;
  /** Epoch seconds: when it ended (completed or cancelled); null while it runs. */
  completedAt: number | null;
  startUrl: string;
  maxPages: number;
  /** Null: no depth limit. */
  maxDepth: number | null;
  includeUrls: string[];
  excludeUrls: string[];
  includeExternal: boolean;
  includeSubdomain: boolean;
  searchQuery: string | null;
  topN: number | null;
  followRobotsTxt: boolean;
  /** Seconds. */
  timeout: number;
  /** The scrape options every page runs with, as the request gave them (snake_case). */
  scrapeOptions: Record<string, unknown>;
  webhook: string | null;
  /** The deepest page crawled so far (start page: 0). */
  currentDepth: number;
  pagesCount: number;
  failedCount: number;
  blockedCount: number;
  externalCount: number;
  /** Why the crawl ended; null while it runs. */
  stopReason: CrawlStopReason | null;
  warning: string | null;
}

/** A page of a crawl's pages. */
export interface CrawlPagesView {
  crawlId: string;
  status: string;
  pages: CrawlPageEntry[];
  /** Pages in the listing (all, or those matching search_query). */
  pagesCount: number;
  externalUrls: string[];
  failedUrls: string[];
  /** Where the next page starts; null on the last. */
  cursor: number | null;
}

export function crawlView(crawl: Crawl): CrawlView {
  return {
    id: crawl.id,
    status: crawl.status,
    created: epochSeconds(crawl.createdAt),
    startDate: crawl.createdAt.toISOString(),
    completedAt: crawl.completedAt ? epochSeconds(crawl.completedAt) : null,
    startUrl: crawl.startUrl,
    maxPages: crawl.maxPages,
    maxDepth: crawl.maxDepth,
    includeUrls: crawl.includeUrls,
    excludeUrls: crawl.excludeUrls,
    includeExternal: crawl.includeExternal,
    includeSubdomain: crawl.includeSubdomain,
    searchQuery: crawl.searchQuery,
    topN: crawl.topN,
    followRobotsTxt: crawl.followRobotsTxt,
    timeout: crawl.timeoutSeconds,
    scrapeOptions: crawl.options as Record<string, unknown>,
    webhook: crawl.webhook,
    currentDepth: crawl.currentDepth,
    pagesCount: crawl.pagesCount,
    failedCount: crawl.failedCount,
    blockedCount: crawl.blockedCount,
    externalCount: crawl.externalCount,
    stopReason: crawl.stopReason,
    warning: crawl.warning,
  };
}
