import { chromium, type Browser } from 'playwright-core';
import { chromiumArgs } from '../../engines/playwright/browser-launch.js';
import { createPlaywrightEngine, type PlaywrightEngine } from '../../engines/playwright/playwright.engine.js';
import { createOutboundGuard } from '../../src/engine/outbound-guard.js';

/** One way of rendering pages that the benchmark measures. */
export interface BrowserSide {
  readonly name: 'bare' | 'engine';
  start(): Promise<void>;
  /** Renders one page; throws when the page did not come out right. */
  scrape(url: string): Promise<void>;
  stop(): Promise<void>;
}

/** Every generated article has its title in an `<h1>`; a page without one was not rendered. */
function check(html: string, url: string): void {
  if (!html.includes('<h1')) throw new Error(`${url}: no <h1> in the rendered page`);
}

/**
 * The bare loop: what a script using playwright-core directly would do for a fresh-context
 * scrape. Same Chromium, same flags as the engine, nothing else: no guard, no proxy, no route
 * layer, no resource policy, no settle.
 */
export function bareSide(executablePath: string): BrowserSide {
  let browser: Browser | null = null;
  return {
    name: 'bare',
    async start() {
      browser = await chromium.launch({ executablePath, headless: true, args: chromiumArgs(512) });
    },
    async scrape(url) {
      const context = await browser!.newContext();
      try {
        const page = await context.newPage();
        await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
        check(await page.content(), url);
      } finally {
        await context.close();
      }
    },
    async stop() {
      await browser?.close();
      browser = null;
    },
  };
}

/** The service's engine as the composition root builds it (private targets allowed for the local site). */
export function engineSide(executablePath: string, poolSize: number): BrowserSide {
  let engine: PlaywrightEngine | null = null;
  const signal = new AbortController().signal;
  return {
    name: 'engine',
    async start() {
      engine = createPlaywrightEngine({
        guard: createOutboundGuard({ allowPrivate: true, denyDomains: [] }),
        executablePath,
        connectTimeoutMs: 10_000,
        maxResponseBytes: 20 << 20,
        poolSize,
      });
      await engine.start();
    },
    async scrape(url) {
      const page = await engine!.fetchPage({ url, timeoutMs: 30_000 }, signal);
      if (page.statusCode !== 200) throw new Error(`${url}: status ${page.statusCode}`);
      check(page.text ?? '', url);
    },
    async stop() {
      await engine?.stop();
      engine = null;
    },
  };
}
