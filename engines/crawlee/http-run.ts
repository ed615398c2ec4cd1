import type { HttpCrawlingContext } from '@crawlee/cheerio';
import type { CrawlEngineOptions, CrawlWork } from '../../src/engine/crawl-engine.js';
import { loadCheerio, runConfiguration, silentLog } from './crawlee-runtime.js';
import { EngineHttpClient, type SnapshotFetcher } from './engine-http-client.js';
import { FrontierRequestManager } from './frontier-request-manager.js';

export interface HttpRunDeps {
  fetchSnapshot: SnapshotFetcher;
  dataDir: string;
}

/** Statuses handed to the request handler instead of being thrown by Crawlee: the crawl decides about them. */
const SERVER_ERRORS = Array.from({ length: 100 }, (_, i) => 500 + i);

/**
 * One crawl run on Crawlee's HttpCrawler: targets come from the crawl's frontier
 * (FrontierRequestManager), fetches go through the `http` engine (EngineHttpClient), and the
 * snapshot goes back to the crawl, which processes it like a scrape (its links come from that
 * processing: the page is parsed once). Concurrency is fixed (min = max), retries are the
 * crawl's (maxRequestRetries 0), and no session pool or cookies carry state between pages.
 */
export async function runHttp(work: CrawlWork, options: CrawlEngineOptions, deps: HttpRunDeps): Promise<void> {
  const mod = await loadCheerio();
  if (options.signal.aborted) return;
  const client = new EngineHttpClient(deps.fetchSnapshot, options.signal);
  const target = FrontierRequestManager.target;
  const seconds = Math.ceil(options.pageTimeoutMs / 1000);
  const crawler = new mod.HttpCrawler(
    {
      requestQueue: new FrontierRequestManager(work, mod.Request).asQueue(),
      httpClient: client,
      maxRequestRetries: 0,
      useSessionPool: false,
      persistCookiesPerSession: false,
      minConcurrency: options.concurrency,
      maxConcurrency: options.concurrency,
      navigationTimeoutSecs: seconds + 5,
      requestHandlerTimeoutSecs: seconds + 120,
      additionalMimeTypes: ['*/*'],
      ignoreHttpErrorStatusCodes: SERVER_ERRORS,
      autoscaledPoolOptions: { maybeRunIntervalSecs: 0.02, loggingIntervalSecs: null },
      statusMessageLoggingInterval: 3600,
      log: silentLog(mod),
      requestHandler: async (ctx: HttpCrawlingContext) => {
        const snapshot = client.snapshotOf(ctx.response);
        if (!snapshot) throw new Error(`no response was recorded for ${ctx.request.url}`);
        await work.fetched(target(ctx.request), { snapshot });
      },
      failedRequestHandler: async ({ request }, error) => work.failed(target(request), error),
    },
    runConfiguration(mod, deps.dataDir),
  );
  await runUntilAborted(crawler, options.signal);
}

/** Runs a crawler until it finishes by itself, or tears it down when `signal` aborts. */
export async function runUntilAborted(
  crawler: { run(): Promise<unknown>; teardown(): Promise<void> },
  signal: AbortSignal,
): Promise<void> {
  const onAbort = () => void crawler.teardown().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await crawler.run();
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
