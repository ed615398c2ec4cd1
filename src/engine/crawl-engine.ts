import type { PageRequest, PageSnapshot } from './types.js';

/** One URL of the frontier handed to an engine. */
export interface CrawlTarget {
  /** The frontier row (`page_…`). */
  id: string;
  /** Normalised absolute URL. */
  url: string;
  /** Attempts including this one. */
  attempt: number;
}

/**
 * What an engine got for a target: the snapshot (any HTTP status). The crawl processes it like
 * a scrape (src/pipeline), which also yields the links it follows: the page is parsed once.
 */
export interface CrawledPage {
  snapshot: PageSnapshot;
}

/**
 * The work a crawl engine pulls. The crawl run implements it over the frontier in Postgres: it
 * claims URLs, checks robots.txt and paces hosts before a target becomes available through
 * `next()`, and records every outcome under the crawl's lease.
 */
export interface CrawlWork {
  /** The next target that may be fetched now, or null when none is ready at the moment. */
  next(): CrawlTarget | null;
  /** True once no target will come any more; the engine ends when this holds and nothing is in flight. */
  isDone(): boolean;
  /** The engine fetched `target` (whatever the HTTP status). Resolves once the outcome is recorded. */
  fetched(target: CrawlTarget, page: CrawledPage): Promise<void>;
  /** The engine could not fetch `target` (network, outbound guard, time budget, browser failure). */
  failed(target: CrawlTarget, error: unknown): Promise<void>;
}

export interface CrawlEngineOptions {
  /** Browser settings when the scrape options need a browser; absent: plain HTTP. */
  browser?: PageRequest['browser'];
  /** Render every page in a browser engine even when the options do not need one (`engine: playwright`). */
  forceBrowser?: boolean;
  /** Time budget of one page (fetch, rendering, actions). */
  pageTimeoutMs: number;
  /** Pages in flight at once. */
  concurrency: number;
  /** Ends the run: in-flight pages are abandoned (their outcome is not reported). */
  signal: AbortSignal;
}

/**
 * Fetches a crawl's pages. Implemented by `engines/crawlee` (Crawlee's HttpCrawler over the
 * `http` engine, or its BasicCrawler driving the browser engines when pages need a browser);
 * declared with `defineEngine({ kind: 'crawl', … })` and made by the engine registry on first
 * use (`EngineRegistry.crawlEngine()`).
 *
 * @example
 * const engine: CrawlEngine = engines.crawlEngine();
 * await engine.run(work, { pageTimeoutMs: 30_000, concurrency: 8, signal });
 */
export interface CrawlEngine {
  readonly id: string;
  /** Pulls targets from `work` until it is done and nothing is in flight, or until `signal` aborts. */
  run(work: CrawlWork, options: CrawlEngineOptions): Promise<void>;
  /** Releases what the engine keeps between runs (a browser, a proxy). */
  close?(): Promise<void>;
}
