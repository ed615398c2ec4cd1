import type { BasicCrawlingContext } from '@crawlee/cheerio';
import type { CrawlEngineOptions, CrawlWork } from '../../src/engine/crawl-engine.js';
import type { EngineRegistry } from '../../src/engine/registry.js';
import { requiredCapabilities } from '../../src/engine/selection.js';
import type { PageRequest, PageSnapshot } from '../../src/engine/types.js';
import { runUntilAborted } from './http-run.js';
import { loadCheerio, runConfiguration, silentLog } from './crawlee-runtime.js';
import { FrontierRequestManager } from './frontier-request-manager.js';

export interface BrowserRunDeps {
  /** The process's engine registry; pages are rendered by its browser engines. */
  engines: EngineRegistry;
  dataDir: string;
  /** Pages the first browser engine renders at once (its `concurrency`): a crawl never asks for more. */
  browserSlots: number;
}

/**
 * One browser crawl run on Crawlee's BasicCrawler, each page rendered by the service's browser
 * engines (the first by priority; the next when it falls back): the same pool, identity, guard
 * proxy, resource policy, actions, screenshots and PDFs as a browser scrape. The rendered page goes back to the
 * crawl, which processes it (links included) like a scrape. (Crawlee's PlaywrightCrawler is not used: loading @crawlee/browser-pool opens an
 * unauthenticated forward proxy on every interface; see docs/crawls.md.)
 */
export async function runBrowser(work: CrawlWork, options: CrawlEngineOptions, deps: BrowserRunDeps): Promise<void> {
  const mod = await loadCheerio();
  if (options.signal.aborted) return;
  const target = FrontierRequestManager.target;
  const concurrency = Math.max(1, Math.min(options.concurrency, deps.browserSlots));
  const seconds = Math.ceil(options.pageTimeoutMs / 1000);
  const crawler = new mod.BasicCrawler(
    {
      requestQueue: new FrontierRequestManager(work, mod.Request).asQueue(),
      maxRequestRetries: 0,
      useSessionPool: false,
      minConcurrency: concurrency,
      maxConcurrency: concurrency,
      requestHandlerTimeoutSecs: seconds + 120,
      autoscaledPoolOptions: { maybeRunIntervalSecs: 0.02, loggingIntervalSecs: null },
      statusMessageLoggingInterval: 3600,
      log: silentLog(mod),
      requestHandler: async ({ request }: BasicCrawlingContext) => {
        const snapshot = await render(deps.engines, request.url, options);
        await work.fetched(target(request), { snapshot });
      },
      failedRequestHandler: async ({ request }, error) => work.failed(target(request), error),
    },
    runConfiguration(mod, deps.dataDir),
  );
  await runUntilAborted(crawler, options.signal);
}

async function render(engines: EngineRegistry, url: string, options: CrawlEngineOptions): Promise<PageSnapshot> {
  const req: PageRequest = { url, timeoutMs: options.pageTimeoutMs, browser: options.browser ?? {} };
  const needs = [...new Set(['javascript' as const, ...requiredCapabilities(req)])];
  const { snapshot } = await engines.fetch(req, { needs, escalate: false, signal: options.signal });
  return snapshot;
}
