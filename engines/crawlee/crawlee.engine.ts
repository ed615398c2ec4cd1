import type { CrawlEngine, CrawlEngineOptions, CrawlWork } from '../../src/engine/crawl-engine.js';
import type { EngineRegistry } from '../../src/engine/registry.js';
import type { ScrapeEngine } from '../../src/engine/types.js';
import { errors } from '../../src/errors.js';
import { runHttp } from './http-run.js';
import type { SnapshotFetcher } from './engine-http-client.js';
import { runBrowser } from './browser-run.js';

export interface CrawleeEngineOptions {
  /** The process's engine registry: plain pages are fetched by its `http` engine. */
  engines: EngineRegistry;
  /** DATA_DIR: the only place Crawlee could write to (it is configured to keep everything in memory). */
  dataDir: string;
}

/** Pages a browser crawl renders at once when its engine does not say (`ScrapeEngine.concurrency`). */
const DEFAULT_BROWSER_SLOTS = 4;

/**
 * The `crawlee` crawl engine: Crawlee's HttpCrawler for plain pages (fetched by the `http`
 * engine), Crawlee's BasicCrawler driving the browser engines (`cdp`, `playwright`, by priority)
 * when the crawl's scrape options need a browser (actions, screenshots, screen sizes, raw_pdf,
 * waits) or ask for one (`engine: playwright`). Either way the crawl's frontier feeds the crawler
 * and every request passes the outbound guard. See docs/crawls.md.
 *
 * @example
 * const engine = createCrawleeEngine({ engines, dataDir: config.dataDir });
 * await engine.run(work, { pageTimeoutMs: 30_000, concurrency: 8, signal });
 */
export function createCrawleeEngine(options: CrawleeEngineOptions): CrawlEngine {
  const { engines, dataDir } = options;
  return {
    id: 'crawlee',
    async run(work: CrawlWork, run: CrawlEngineOptions) {
      if (run.browser !== undefined || run.forceBrowser) {
        const browser: ScrapeEngine | undefined = engines.candidates(['javascript'])[0];
        if (!browser) {
          throw errors.validation('scrape_options: this crawl needs a browser, and none is available here');
        }
        return runBrowser(work, run, { engines, dataDir, browserSlots: browser.concurrency ?? DEFAULT_BROWSER_SLOTS });
      }
      const fetchSnapshot: SnapshotFetcher = async (url, signal) =>
        (await engines.fetch({ url, timeoutMs: run.pageTimeoutMs }, { engine: 'http', escalate: false, signal }))
          .snapshot;
      return runHttp(work, run, { fetchSnapshot, dataDir });
    },
  };
}
