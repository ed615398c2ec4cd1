import type { BrowserContext, Page, Request, Route } from 'playwright-core';
import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import type { PageSnapshot } from '../../src/engine/types.js';
import type { RenderSettings } from './browser-settings.js';
import { blockReason } from './resource-policy.js';

/** Once requests stop, this much quiet lets the page render what they brought. */
export const QUIET_MS = 50;
/** Response headers that describe the transfer, not the document we hand to the browser. */
const TRANSFER_HEADERS = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);
/** Requests that stay open by design and must not hold the capture back. */
const LONG_LIVED = new Set(['eventsource', 'websocket']);

export interface RoutingOptions {
  /** Answer to the page's first main-frame navigation. */
  document: PageSnapshot;
  settings: RenderSettings;
  guard: OutboundGuard;
  /** The page, once created (requests before it exist are the first navigation's). */
  page(): Page | null;
  /** A request the guard refused before it left the browser; `navigation`: the main frame's. */
  onRefused(url: URL, detail: string, navigation: boolean): void;
  /** The main frame navigates again (a script, a click); redirect hops are not seen here. */
  onNavigation(url: string): void;
  onBlocked(): void;
  /** A request the page makes goes on to the network (the settle waits for these). */
  onContinued(request: Request): void;
}

/**
 * The route layer of a context: the first navigation gets the fetched document; every other
 * request is checked with the guard's URL checks (scheme, deny list, metadata names, IP literals)
 * and the resource policy before it goes on to the context's guard proxy.
 */
export async function installRouting(context: BrowserContext, options: RoutingOptions): Promise<void> {
  let served = false;
  const keepFonts = options.settings.screenshot !== null || options.settings.printPdf;
  const policy = { loadAllResources: options.settings.loadAllResources, keepFonts };
  await context.route('**/*', async (route: Route) => {
    const request = route.request();
    try {
      if (!served && request.isNavigationRequest() && isMainFrame(request, options.page())) {
        served = true;
        return await route.fulfill(fulfilment(options.document));
      }
      const url = new URL(request.url());
      const navigation = request.isNavigationRequest() && isMainFrame(request, options.page());
      if (navigation) options.onNavigation(url.href);
      if (url.protocol === 'http:' || url.protocol === 'https:') {
        const detail = refusal(options.guard, url);
        if (detail !== null) {
          options.onRefused(url, detail, navigation);
          return await route.abort('blockedbyclient');
        }
        if (blockReason(request.resourceType(), url, policy)) {
          options.onBlocked();
          return await route.abort('blockedbyclient');
        }
      }
      options.onContinued(request);
      await route.continue();
    } catch {
      // The page or context closed while the request was paused: nothing left to answer.
    }
  });
}

function refusal(guard: OutboundGuard, url: URL): string | null {
  try {
    guard.checkUrl(url);
    return null;
  } catch (err) {
    return (err as { detail?: string }).detail ?? String(err);
  }
}

function isMainFrame(request: Request, page: Page | null): boolean {
  try {
    return page === null || request.frame() === page.mainFrame();
  } catch {
    return false;
  }
}

/** The fetched document as a response the browser parses like the original (charset made explicit). */
export function fulfilment(document: PageSnapshot): { status: number; headers: Record<string, string>; body: Buffer } {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(document.headers)) if (!TRANSFER_HEADERS.has(name)) headers[name] = value;
  delete headers['content-disposition'];
  // Our decoder already settled the charset (BOM, header, meta, XML declaration): the browser must agree.
  if (document.charset) headers['content-type'] = `${document.contentType}; charset=${document.charset}`;
  else headers['content-type'] ??= document.contentType;
  return { status: document.statusCode, headers, body: document.body };
}

export interface NetworkTracker {
  /** Counts a request as in flight until it (or the last of its redirects) finishes or fails. */
  track(request: Request): void;
  /**
   * Waits, at most `maxMs`, until no request is in flight and none has been for `QUIET_MS`
   * (or `reactMs` when no request started at all: the time a page gets to react to an interaction),
   * and a round trip to the page brought no request that was still on its way.
   */
  settle(maxMs: number, signal: AbortSignal, reactMs?: number): Promise<void>;
}

/**
 * Tracks the main page's requests (a closed popup's requests never finish). Starts come from the
 * route layer, which sees every request before it leaves: a 'request' listener would make
 * Playwright ship every request to this side once more. A redirect chain counts as its first
 * request, the one the route layer saw.
 */
export function trackNetwork(page: Page): NetworkTracker {
  const inflight = new Set<Request>();
  let started = 0;
  const done = (request: Request) => {
    let first = request;
    for (let from = first.redirectedFrom(); from; from = from.redirectedFrom()) first = from;
    inflight.delete(first);
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    track(request) {
      if (LONG_LIVED.has(request.resourceType())) return;
      started++;
      inflight.add(request);
    },
    async settle(maxMs, signal, reactMs = 0) {
      if (inflight.size === 0 && reactMs === 0) return;
      const until = Date.now() + maxMs;
      const startedBefore = started;
      let quietSince: number | null = inflight.size === 0 ? Date.now() : null;
      while (Date.now() < until && !signal.aborted) {
        const quietFor = started === startedBefore ? reactMs : QUIET_MS;
        if (inflight.size > 0) quietSince = null;
        else if (quietSince === null) quietSince = Date.now();
        else if (Date.now() - quietSince >= quietFor) {
          // Quiet as far as this side knows. A request the page made meanwhile may still be on
          // its way here (paused at the route layer, its event not yet read: seen in CI under
          // load, where a page's data request went unnoticed and the page was captured empty).
          // The browser answers in order, so after one round trip to the page every request it
          // made before has reached the route layer.
          const seen = started;
          await page.evaluate(() => 0).catch(() => undefined);
          if (started === seen && inflight.size === 0) return;
          quietSince = null;
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
