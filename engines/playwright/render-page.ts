import type { BrowserContext, Page, Request } from 'playwright-core';
import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import type { PageSnapshot } from '../../src/engine/types.js';
import { errors, type AppError } from '../../src/errors.js';
import type { RenderSettings } from './browser-settings.js';
import type { ProxySessionLog } from './guard-proxy.js';
import { runActions, sleep } from './page-actions.js';
import { installRouting, QUIET_MS, trackNetwork, type NetworkTracker } from './page-network.js';

/** Longest wait for the `load` event after the document is parsed; then the page is captured as it is. */
const LOAD_WAIT_MS = 10_000;
/** Longest wait for requests still running after `load` (data fetched by scripts). */
const SETTLE_AFTER_LOAD_MS = 3_000;
/** After an interaction, how long a page has to start reacting (observers, timers) before it counts as settled. */
const REACT_MS = 150;
/** Full-page screenshots are cut at this height (a 1920×100 000 PNG helps nobody). */
export const MAX_SCREENSHOT_HEIGHT = 16_384;

export interface RenderInput {
  /** The main document, already fetched (with the guard, redirects and size limit of the http engine). */
  document: PageSnapshot;
  settings: RenderSettings;
  guard: OutboundGuard;
  remaining(): number;
  signal: AbortSignal;
  setPhase(label: string): void;
  /** What the scrape's guard proxy session saw (refusals as `host:port: detail`). */
  log: ProxySessionLog;
}

export interface RenderOutput {
  html: string;
  finalUrl: string;
  /** Set when scripts or actions navigated the main frame to another document. */
  navigated: { url: string; statusCode: number; headers: Record<string, string>; contentType: string } | null;
  screenshot?: Buffer;
  pdf?: Buffer;
  actionsOutput?: unknown[];
  warnings: string[];
  /** Requests the page made that the route layer refused (guard) or skipped (policy). */
  refused: string[];
  blocked: number;
  /** The last main-frame navigation after the first (a script or a click sent the page elsewhere). */
  lastNavigation: string | null;
  /** A main-frame navigation the route layer refused (guard), with the guard's reason. */
  refusedNavigation: { url: string; detail: string } | null;
}

/** The page of a scrape and what is known about it while it runs. */
interface OpenPage {
  page: Page;
  network: NetworkTracker;
  crashed(): boolean;
}

/**
 * Renders a fetched document in a fresh context: the first navigation is answered with the
 * fetched bytes, every other request goes through the route layer (guard URL checks, resource
 * policy) and the context's guard proxy. Then waits for the page, runs actions and captures it.
 * The caller owns the context (and closes it, also when this is abandoned on timeout).
 */
export async function renderPage(context: BrowserContext, input: RenderInput): Promise<RenderOutput> {
  const out: RenderOutput = {
    html: '',
    finalUrl: input.document.finalUrl,
    navigated: null,
    warnings: [],
    refused: [],
    blocked: 0,
    lastNavigation: null,
    refusedNavigation: null,
  };
  const opened = await openPage(context, input, out);
  await loadPage(opened, input, out);
  const { settings } = input;
  if (settings.waitBeforeMs > 0) {
    input.setPhase(`waiting ${settings.waitBeforeMs} ms before scraping`);
    await sleep(settings.waitBeforeMs, input.signal);
  }
  if (settings.actions.length > 0) {
    out.actionsOutput = await runActions(opened.page, settings.actions, {
      remaining: input.remaining,
      signal: input.signal,
      setPhase: input.setPhase,
      settle: (ms) => opened.network.settle(ms, input.signal, REACT_MS),
      broken: () => opened.crashed() || opened.page.isClosed(),
    });
  }
  input.setPhase('capturing the page');
  await capture(opened, input, out);
  return out;
}

async function openPage(context: BrowserContext, input: RenderInput, out: RenderOutput): Promise<OpenPage> {
  let page: Page | null = null;
  let network: NetworkTracker | null = null;
  await installRouting(context, {
    document: input.document,
    settings: input.settings,
    guard: input.guard,
    page: () => page,
    onRefused(url, detail, navigation) {
      if (out.refused.length < 20) out.refused.push(`${url.host}: ${detail}`);
      if (navigation) out.refusedNavigation = { url: url.href, detail };
    },
    onBlocked: () => void out.blocked++,
    onNavigation: (url) => void (out.lastNavigation = url),
    // Only the main page's requests: a popup's would never report finishing on the main page.
    onContinued: (request) => {
      if (network && frameOwner(request) === page) network.track(request);
    },
  });
  const main = await context.newPage();
  page = main;
  network = trackNetwork(main);
  let crashed = false;
  main.on('crash', () => (crashed = true));
  // Popups are not part of the scrape: close them as they open.
  context.on('page', (other) => void (other !== main && other.close().catch(() => undefined)));
  // No 'response' listener: Playwright would then ship every response of the page to this side.
  return { page: main, network, crashed: () => crashed };
}

/** Navigation, the load event (bounded), then the requests scripts start around it. */
async function loadPage(opened: OpenPage, input: RenderInput, out: RenderOutput): Promise<void> {
  const { page } = opened;
  const { document } = input;
  input.setPhase(`loading ${hostOf(document.finalUrl)} in the browser`);
  await page.goto(document.finalUrl, { waitUntil: 'domcontentloaded', timeout: input.remaining() });
  const loaded = await page
    .waitForLoadState('load', { timeout: Math.max(1, Math.min(LOAD_WAIT_MS, input.remaining() - 1000)) })
    .then(() => true)
    .catch(() => false);
  if (!loaded && !input.signal.aborted && !opened.crashed()) {
    out.warnings.push('the page did not finish loading (its load event never came); it was captured as it was');
  }
  // Scripts may start fetching data around the load event; a page without scripts is done.
  const scripted = /<script\b/i.test(document.text ?? '');
  const settleMs = Math.min(SETTLE_AFTER_LOAD_MS, input.remaining());
  await opened.network.settle(settleMs, input.signal, scripted ? QUIET_MS : 0);
}

async function capture(opened: OpenPage, input: RenderInput, out: RenderOutput): Promise<void> {
  const { page } = opened;
  out.finalUrl = page.url();
  if (out.refusedNavigation || out.finalUrl.startsWith('chrome-error:')) throw navigationFailure(out, input);
  const shown = await page.evaluate(() => {
    const entry = performance.getEntriesByType('navigation')[0] as
      (PerformanceEntry & { responseStatus?: number }) | undefined;
    return { url: entry?.name ?? location.href, status: entry?.responseStatus ?? 0, type: document.contentType };
  });
  // pushState changes the URL, not the document: only another document is a navigation.
  if (stripHash(shown.url) !== stripHash(input.document.finalUrl)) {
    if (shown.status >= 590 || refusalFor(shown.url, out, input)) {
      out.lastNavigation = shown.url;
      throw navigationFailure(out, input);
    }
    const contentType = shown.type.toLowerCase();
    out.navigated = {
      url: shown.url,
      statusCode: shown.status || 200,
      headers: { 'content-type': contentType },
      contentType,
    };
  }
  out.html = await page.content();
  const { screenshot, printPdf } = input.settings;
  if (screenshot) {
    input.setPhase('taking the screenshot');
    out.screenshot = await takeScreenshot(page, screenshot.fullPage, input, out.warnings);
  }
  if (printPdf) {
    input.setPhase('printing the page to PDF');
    out.pdf = await page.pdf({ printBackground: true });
  }
}

/**
 * The page sent itself somewhere that failed to load. If the guard refused that address (in the
 * route layer or in the proxy), the answer is the guard's 403; otherwise a 502.
 */
function navigationFailure(out: RenderOutput, input: RenderInput): AppError {
  const refused = out.refusedNavigation;
  if (refused) return errors.blocked(`the page navigated to ${refused.url}, which was refused: ${refused.detail}`);
  const url = out.lastNavigation;
  if (!url) return errors.upstream('the page navigated to an address that could not be loaded');
  const refusal = refusalFor(url, out, input);
  if (refusal) return errors.blocked(`the page navigated to ${url}, which was refused: ${refusal}`);
  return errors.upstream(`the page navigated to ${url}, which could not be loaded`);
}

/** The guard's reason for refusing `url`'s host in this scrape (route layer or proxy), if it did. */
function refusalFor(url: string, out: RenderOutput, input: RenderInput): string | null {
  let host: string;
  let port: string;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.includes(':') ? `[${parsed.hostname}]` : parsed.hostname;
    port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  } catch {
    return null;
  }
  const prefixes = [`${host}:${port}: `, `${host}: `];
  const entry = [...out.refused, ...input.log.refused].find((r) => prefixes.some((p) => r.startsWith(p)));
  return entry ? entry.slice(entry.indexOf(': ') + 2) : null;
}

function frameOwner(request: Request): Page | null {
  try {
    return request.frame().page();
  } catch {
    return null; // a service worker's request has no frame
  }
}

function stripHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

async function takeScreenshot(page: Page, fullPage: boolean, input: RenderInput, warnings: string[]): Promise<Buffer> {
  const timeout = Math.max(1, input.remaining());
  if (!fullPage) return page.screenshot({ type: 'png', timeout, caret: 'hide' });
  const size = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
  }));
  if (size.height <= MAX_SCREENSHOT_HEIGHT)
    return page.screenshot({ type: 'png', fullPage: true, timeout, caret: 'hide' });
  warnings.push(`the full-page screenshot was cut at ${MAX_SCREENSHOT_HEIGHT} px (the page is ${size.height} px tall)`);
  const width = page.viewportSize()?.width ?? size.width;
  return page.screenshot({
    type: 'png',
    fullPage: true,
    clip: { x: 0, y: 0, width, height: MAX_SCREENSHOT_HEIGHT },
    timeout,
    caret: 'hide',
  });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
