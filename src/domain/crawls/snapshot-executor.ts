import { AsyncLocalStorage } from 'node:async_hooks';
import { createProxyPool } from '../../engine/proxy-pool.js';
import { createEngineRegistry } from '../../engine/registry.js';
import type { PageSnapshot, ScrapeEngine } from '../../engine/types.js';
import {
  ScrapeExecutor,
  type ExecuteRequest,
  type ExecutedPage,
  type PreparedScrape,
  type ScrapeExecutorDeps,
} from '../scrapes/scrape-executor.js';
import type { ScrapeOptions } from '../scrapes/scrape.schema.js';

/** The scrape executor for pages a crawl engine already fetched. */
export interface SnapshotExecutor {
  /** Validates and compiles scrape options once per crawl (formats, selectors, parser). */
  prepare(options: ScrapeOptions): PreparedScrape;
  /** Converts and stores `snapshot` exactly as a scrape of `request.url` would (pipeline, parser, objects). */
  execute(request: ExecuteRequest, snapshot: PageSnapshot, prepared: PreparedScrape): Promise<ExecutedPage>;
}

/**
 * Crawl pages go through the same ScrapeExecutor as scrapes and batch items, so formats,
 * parsers and page_metadata behave alike; only the fetch differs (the crawl engine made it).
 * The executor's engine registry holds one engine that hands over the snapshot of the page
 * being executed (carried by an AsyncLocalStorage, so concurrent pages never mix).
 *
 * @example
 * const snapshots = createSnapshotExecutor({ guard, pipeline, parsers, pages, timeoutMs });
 * const prepared = snapshots.prepare(options);
 * const { page } = await snapshots.execute({ teamId, url, urlField: 'url', options, pageId, source: 'crawl' }, snapshot, prepared);
 */
export function createSnapshotExecutor(deps: Omit<ScrapeExecutorDeps, 'engines' | 'proxies'>): SnapshotExecutor {
  const current = new AsyncLocalStorage<PageSnapshot>();
  const handoff: ScrapeEngine = {
    id: 'crawl',
    priority: 0,
    capabilities: { javascript: true, actions: true, screenshot: true, pdf: true, screen: true, proxy: true },
    async fetchPage(req) {
      const snapshot = current.getStore();
      if (!snapshot) throw new Error(`no fetched page to hand over for ${req.url}`);
      return snapshot;
    },
  };
  // The crawl engine fetched the page directly: no proxy is involved here, so a `country` in the
  // crawl's scrape options ends in the "geo-routing was not applied" warning, which is the truth.
  const executor = new ScrapeExecutor({
    ...deps,
    engines: createEngineRegistry([handoff]),
    proxies: createProxyPool([]),
  });
  return {
    prepare: (options) => executor.prepare({ ...options, engine: undefined }),
    execute: (request, snapshot, prepared) =>
      current.run(snapshot, () =>
        executor.execute({ ...request, options: { ...request.options, engine: undefined } }, prepared),
      ),
  };
}
