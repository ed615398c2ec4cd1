import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import { createBrowserEngine, type BrowserEngine } from './browser-engine.js';
import { launchChromium } from './browser-launch.js';
import { readChromiumMajorVersion } from './chromium-path.js';

export interface PlaywrightEngineOptions {
  guard: OutboundGuard;
  /** Chromium executable (`locateChromium`). */
  executablePath: string;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** Pages rendered at once (BROWSER_POOL_SIZE), default 4. */
  poolSize?: number;
  /** BROWSER_RESTART_AFTER_PAGES, default 500. */
  restartAfterPages?: number;
  /** BROWSER_PAGE_HEAP_MB, default 512. */
  pageHeapMb?: number;
  /** Default 10: below `http`, so plain pages stay on the cheap engine. */
  priority?: number;
}

/** The engine plus what operators and benchmarks look at. */
export type PlaywrightEngine = BrowserEngine;

/**
 * The `playwright` engine: this machine's Chromium, launched on first use by playwright-core
 * with the flags of a headless scraping browser (`chromiumArgs`), restarted after
 * `restartAfterPages` pages or when it crashes. The rendering is the shared browser engine's
 * (browser-engine.ts). See docs/engines.md, "The playwright engine".
 *
 * @example
 * const engine = createPlaywrightEngine({ guard, executablePath: '/usr/bin/chromium', connectTimeoutMs: 10_000, maxResponseBytes: 20 << 20 });
 * const page = await engine.fetchPage({ url, timeoutMs: 30_000, browser: { screenshot: { fullPage: true } } }, signal);
 */
export function createPlaywrightEngine(options: PlaywrightEngineOptions): PlaywrightEngine {
  const pageHeapMb = options.pageHeapMb ?? 512;
  const { executablePath } = options;
  return createBrowserEngine({
    id: 'playwright',
    priority: options.priority ?? 10,
    guard: options.guard,
    connectTimeoutMs: options.connectTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    poolSize: options.poolSize ?? 4,
    restartAfterPages: options.restartAfterPages ?? 500,
    source: {
      open: () => launchChromium({ executablePath, pageHeapMb }),
      majorVersion: () => readChromiumMajorVersion(executablePath),
      wording: {
        openFailed: 'Chromium could not be started',
        lost: 'the browser exited',
        recovery: 'it is restarted for the next page',
      },
      pageHeapMb,
    },
  });
}
