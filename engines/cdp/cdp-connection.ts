import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { OpenedBrowser } from '../playwright/browser-pool.js';
import { PROBE_HOST, type GuardProxy } from '../playwright/guard-proxy.js';

export interface RemoteBrowserOptions {
  /** BROWSER_CDP_URL: `ws(s)://…` (the browser's endpoint) or `http(s)://…` (asked for it at /json/version). */
  url: string;
  /** Longest wait for the connection, and then for the probe through the guard proxy. */
  timeoutMs: number;
  /** Check the browser reaches the guard proxy before any page is rendered (default true). */
  probe?: boolean;
}

/**
 * Connects to a remote Chrome over the DevTools protocol (playwright-core's `connectOverCDP`),
 * then checks that it reaches this service's guard proxy: every request a page makes must leave
 * through it, and a browser that cannot reach it would render pages without their
 * subresources and say nothing. Errors name what failed without the URL's token or any address.
 *
 * @example
 * const opened = await connectRemoteBrowser({ url: 'ws://browserless:3000?token=…', timeoutMs: 10_000 }, guardProxy);
 */
export async function connectRemoteBrowser(
  options: RemoteBrowserOptions,
  guardProxy: () => GuardProxy,
): Promise<OpenedBrowser> {
  // Loaded on the first connection, as the playwright engine loads it on its first launch.
  const { chromium } = await import('playwright-core');
  let browser: Browser;
  try {
    browser = await chromium.connectOverCDP(options.url, { timeout: options.timeoutMs });
  } catch (err) {
    throw new Error(`the remote browser could not be reached (${describeFailure(err, options.url)})`, { cause: err });
  }
  if (options.probe !== false) {
    try {
      await probeGuardProxy(browser, guardProxy(), options.timeoutMs);
    } catch (err) {
      await browser.close().catch(() => undefined);
      throw err;
    }
  }
  return { browser, pid: null };
}

/** Loads the proxy's own probe page in a context that uses it; throws when the browser cannot. */
async function probeGuardProxy(browser: Browser, proxy: GuardProxy, timeoutMs: number): Promise<void> {
  const token = randomBytes(12).toString('hex');
  const session = await proxy.probe(token);
  const context = await browser.newContext({ proxy: session.proxy });
  try {
    const page = await context.newPage();
    const response = await page.goto(`http://${PROBE_HOST}/`, { timeout: timeoutMs });
    const answer = response ? await response.text() : '';
    if (answer !== token) throw new Error('the answer was not the proxy’s');
  } catch (err) {
    throw new Error(
      "the remote browser cannot reach this service's guard proxy, which every page's requests go through " +
        `(${describeFailure(err)}); set BROWSER_CDP_PROXY_HOST (and BROWSER_CDP_PROXY_LISTEN) to an address of this service the remote browser reaches`,
      { cause: err },
    );
  } finally {
    await context.close().catch(() => undefined);
    session.close();
  }
}

/**
 * The first line of a connection error, without Playwright's method prefix, the configured URL
 * (its token or credentials), its host, or any IP address and port (the status shows this).
 */
export function describeFailure(err: unknown, url?: string): string {
  let text = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
  text = text.replace(/^[a-zA-Z]+\.[a-zA-Z]+: /, '');
  if (url) {
    const parsed = safeUrl(url);
    const secrets = [url, parsed?.href, parsed?.host, parsed?.hostname, parsed?.username, parsed?.password];
    for (const secret of secrets.filter((s): s is string => !!s && s.length > 1)) text = text.split(secret).join('…');
  }
  return text
    .replace(/\b(token|key|apikey|api_key|password)=[^&\s]+/gi, '$1=…')
    .replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '…')
    .replace(/\[[0-9a-f:]+\](:\d+)?/gi, '…')
    .slice(0, 300);
}

function safeUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
