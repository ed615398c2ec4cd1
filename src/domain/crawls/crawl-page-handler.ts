import { AppError, errors } from '../../errors.js';
import { idSuffix } from '../../ids.js';
import { dedupeKey, normalizeUrl } from '../../url/normalize.js';
import type { PreparedScrape, ScrapeExecutor } from '../scrapes/scrape-executor.js';
import type { CrawledPage } from '../../engine/crawl-engine.js';
import type { CrawlRecords, UrlEnd } from './crawl-records.js';
import type { ClaimedCrawl, CrawlCounters, FrontierRow } from './crawl-rows.js';
import type { CrawlScope } from './crawl-scope.js';

export interface PageHandlerDeps {
  crawl: ClaimedCrawl;
  owner: string;
  scope: CrawlScope;
  /** Processes the pages the crawl engine fetched, as it does a scrape's (prepared with `discoverLinks`). */
  executor: ScrapeExecutor;
  prepared: PreparedScrape;
  records: CrawlRecords;
  /** The counters as last recorded (the start page moves the site only while no page exists). */
  counters: () => CrawlCounters;
  signal: AbortSignal;
}

/** Frontier positions a crawl may use: plenty for breadth first within max_pages, bounded for traps. */
export function frontierCap(maxPages: number): number {
  return Math.min(1_000_000, Math.max(1_000, maxPages * 20));
}

/**
 * What a fetched URL becomes: a page (converted and stored like a scrape, its links planned
 * into the frontier), a failure (HTTP 4xx; 5xx and 429 throw a retryable error), or an
 * external URL (a redirect off the site). Returns the crawl's counters, or null when the
 * runner lost the crawl meanwhile (nothing was recorded).
 */
export async function handleFetchedPage(
  deps: PageHandlerDeps,
  row: FrontierRow,
  fetched: CrawledPage,
): Promise<CrawlCounters | null> {
  const { crawl, owner, scope, records } = deps;
  const { snapshot } = fetched;
  const status = snapshot.statusCode;
  if (status >= 500 || status === 429) {
    throw errors.upstream(`${row.url} answered HTTP ${status}`);
  }
  if (status < 200 || status >= 300) {
    return records.endUrl(owner, crawl.id, row.id, httpFailure(row.url, status));
  }
  const finalUrl = normalizeUrl(snapshot.finalUrl) ?? snapshot.finalUrl;
  const finalKey = dedupeKey(finalUrl);
  const redirected = finalKey !== null && finalKey !== dedupeKey(row.url);
  let external = row.isExternal;
  let movedTo: string | undefined;
  if (!external && !scope.inSite(finalUrl)) {
    if (row.depth === 0 && deps.counters().pagesCount === 0) {
      scope.moveTo(finalUrl);
      movedTo = finalUrl;
    } else if (crawl.includeExternal) {
      external = true;
    } else {
      return records.endUrl(owner, crawl.id, row.id, { status: 'external', finalUrl });
    }
  }
  const executed = await deps.executor.process(
    {
      teamId: crawl.teamId,
      url: row.url,
      urlField: 'url',
      options: crawl.options,
      pageId: idSuffix('page', row.id) ?? row.id,
      source: 'crawl',
      signal: deps.signal,
    },
    { snapshot, warnings: [] },
    deps.prepared,
  );
  const plan = external ? { rows: [], decided: [] } : scope.plan(executed.links, row.depth);
  const result = await records.recordPage(owner, crawl.id, {
    targetId: row.id,
    depth: row.depth,
    isExternal: external,
    page: executed.page,
    redirect: redirected ? { key: finalKey, url: finalUrl, isExternal: external } : null,
    links: plan.rows,
    frontierCap: frontierCap(crawl.maxPages),
    scopeUrl: movedTo,
  });
  // Refused: the lease was lost (the next runner fetches this URL again) or the crawl was
  // cancelled (nobody will: the page's objects go).
  if (!result && (await records.wasCancelled(crawl.id))) await deps.executor.discard(executed.page);
  if (result?.outcome === 'recorded') scope.rememberKeys(redirected ? [...plan.decided, finalKey] : plan.decided);
  return result?.counters ?? null;
}

function httpFailure(url: string, status: number): UrlEnd {
  return { status: 'failed', code: 'http_error', message: `${url} answered HTTP ${status}` };
}

/** Failures worth another attempt: the target or a dependency may answer next time. */
const RETRYABLE = new Set(['upstream', 'timeout', 'unavailable', 'internal', 'rate_limited']);

/** How a failure ends its URL; `retry` when another attempt may succeed. */
export function classifyFailure(err: unknown): { retry: boolean; code: string; message: string } {
  if (err instanceof AppError) {
    return { retry: RETRYABLE.has(err.kind), code: err.code, message: err.detail };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { retry: true, code: 'fetch_failed', message: message.split('\n')[0]!.slice(0, 500) };
}
