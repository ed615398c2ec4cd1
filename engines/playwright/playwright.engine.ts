import type { Browser, BrowserContext } from 'playwright-core';
import { createDeadline } from '../../src/engine/deadline.js';
import { EngineFallbackError } from '../../src/engine/errors.js';
import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import type { PageRequest, PageSnapshot, ScrapeEngine } from '../../src/engine/types.js';
import { redactProxyUrl } from '../../src/engine/proxy-pool.js';
import { AppError, errors } from '../../src/errors.js';
import { createHttpEngine } from '../http/http.engine.js';
import { contextOptions, navigationHeaders } from './browser-identity.js';
import { createBrowserPool, type BrowserLease, type BrowserPoolStats } from './browser-pool.js';
import { validateBrowserSettings, type RenderSettings } from './browser-settings.js';
import { readChromiumMajorVersion } from './chromium-path.js';
import { startGuardProxy, type GuardProxy, type ProxySession } from './guard-proxy.js';
import { renderPage, type RenderOutput } from './render-page.js';

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
export interface PlaywrightEngine extends ScrapeEngine {
  start(): Promise<void>;
  stop(): Promise<void>;
  stats(): BrowserPoolStats;
}

/** A Chromium that does not report its version is treated as this one (user agent only). */
const FALLBACK_MAJOR = 130;
const DOCUMENT_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * The browser engine: Chromium driven by playwright-core. The main document is fetched in Node
 * exactly as the http engine fetches it (guard at connect time, each redirect checked, size
 * limit, charset), then handed to a fresh browser context as the answer to its navigation;
 * everything the page loads afterwards goes through the route layer and the guard proxy.
 * See docs/engines.md, "The playwright engine".
 *
 * @example
 * const engine = createPlaywrightEngine({ guard, executablePath: '/usr/bin/chromium', connectTimeoutMs: 10_000, maxResponseBytes: 20 << 20 });
 * const page = await engine.fetchPage({ url, timeoutMs: 30_000, browser: { screenshot: { fullPage: true } } }, signal);
 */
export function createPlaywrightEngine(options: PlaywrightEngineOptions): PlaywrightEngine {
  const { guard } = options;
  const pageHeapMb = options.pageHeapMb ?? 512;
  const documents = createHttpEngine({
    guard,
    connectTimeoutMs: options.connectTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
  });
  const pool = createBrowserPool({
    executablePath: options.executablePath,
    size: options.poolSize ?? 4,
    restartAfterPages: options.restartAfterPages ?? 500,
    pageHeapMb,
  });
  let major: Promise<number> | null = null;
  let proxy: GuardProxy | null = null;
  const browserMajor = () =>
    (major ??= readChromiumMajorVersion(options.executablePath).then((v) => v ?? FALLBACK_MAJOR));
  const guardProxy = () => (proxy ??= startGuardProxy(guard));

  async function fetchPage(req: PageRequest, signal: AbortSignal): Promise<PageSnapshot> {
    const settings = validateBrowserSettings(req.browser);
    const target = guard.checkUrl(req.url);
    const deadline = createDeadline(req.timeoutMs, signal);
    const started = Date.now();
    const remaining = () => req.timeoutMs - (Date.now() - started);
    let phase = `no complete response from ${target.host}`;
    const setPhase = (label: string) => void (phase = `${label} did not finish`);
    let session: ProxySession | null = null;
    try {
      const ua = await browserMajor();
      session = await guardProxy().session(req.proxy ?? null);
      const document = await fetchDocument(req, settings, ua, session, deadline.signal);
      const skipped = notRendered(document, settings);
      if (skipped) return skipped;
      setPhase('waiting for a free browser page');
      const lease = await acquire(deadline.signal);
      const log = session.log;
      const render = { document, settings, guard, remaining, signal: deadline.signal, setPhase, log };
      const out = await inContext(lease, contextOptions(settings, ua, session.proxy), deadline.signal, (context) =>
        renderPage(context, render),
      );
      return toSnapshot(req, document, out, session);
    } catch (err) {
      const explained = deadline.explain(err, phase);
      if (explained !== err) throw explained;
      throw browserFailure(err, phase, pageHeapMb);
    } finally {
      session?.close();
      deadline.dispose();
    }
  }

  async function fetchDocument(
    req: PageRequest,
    settings: RenderSettings,
    ua: number,
    session: ProxySession,
    signal: AbortSignal,
  ): Promise<PageSnapshot> {
    const prefetched = req.prefetched;
    if (prefetched && prefetched.url === req.url) return prefetched;
    const upstream = req.proxy ?? null;
    // The http engine speaks to http(s) proxies itself; a socks proxy is reached through the
    // guard proxy, which chains to it (and answers 590-599 when it fails: proxy-chain's codes).
    const socks = upstream !== null && !/^https?:/i.test(upstream.url);
    const proxy = socks ? { url: session.proxy.server } : upstream;
    const headers = { ...navigationHeaders(ua, settings.screen.mobile), ...req.headers };
    const document = await documents.fetchPage({ url: req.url, timeoutMs: req.timeoutMs, headers, proxy }, signal);
    if (socks && document.statusCode >= 590 && document.statusCode <= 599) {
      throw errors.upstream(
        `the proxy ${redactProxyUrl(upstream.url)} failed (${document.text?.trim() || document.statusCode})`,
      );
    }
    return document;
  }

  async function acquire(signal: AbortSignal): Promise<BrowserLease> {
    try {
      return await pool.acquire(signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new EngineFallbackError(`Chromium could not be started: ${firstLine(err)}`, { cause: err });
    }
  }

  return {
    id: 'playwright',
    priority: options.priority ?? 10,
    concurrency: options.poolSize ?? 4,
    capabilities: { javascript: true, actions: true, screenshot: true, pdf: true, screen: true, proxy: true },
    async start() {
      // Only the version (for the user agent), in the background: the browser starts on first use.
      void browserMajor();
    },
    fetchPage,
    stats: () => pool.stats(),
    async stop() {
      await pool.stop();
      await documents.stop?.();
      const started = proxy;
      proxy = null;
      await started?.close();
    },
  };
}

/**
 * Runs `work` in a fresh context and always closes it, also when the deadline abandons `work`
 * (an endless script): closing the context is what stops the page. A context that will not
 * close within 5 s marks the browser broken, so the pool replaces it.
 */
async function inContext<T>(
  lease: BrowserLease,
  contextOptions: Parameters<Browser['newContext']>[0],
  signal: AbortSignal,
  work: (context: BrowserContext) => Promise<T>,
): Promise<T> {
  let context: BrowserContext | null = null;
  // A page that is only waiting (an action's sleep) must not outlive its browser.
  let onDisconnect = () => undefined as void;
  const disconnected = new Promise<never>((_, reject) => {
    onDisconnect = () => reject(new Error('browser has disconnected'));
  });
  disconnected.catch(() => undefined);
  lease.browser.once('disconnected', onDisconnect);
  try {
    context = await lease.browser.newContext(contextOptions);
    const running = work(context);
    running.catch(() => undefined);
    return await Promise.race([running, rejectOnAbort(signal), disconnected]);
  } finally {
    lease.browser.off('disconnected', onDisconnect);
    const closed = context ? await closeWithin(context, 5000) : true;
    lease.release({ broken: !closed });
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
}

async function closeWithin(context: BrowserContext, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const closed = context.close().then(
    () => true,
    () => true,
  );
  const result = await Promise.race([closed, timeout]);
  clearTimeout(timer);
  return result;
}

/** Documents a browser has nothing to add to (PDFs, images, JSON without screenshots) come back as fetched. */
function notRendered(document: PageSnapshot, settings: RenderSettings): PageSnapshot | null {
  if (DOCUMENT_TYPES.has(document.contentType)) return null;
  const wantsBrowser = settings.screenshot !== null || settings.printPdf || settings.actions.length > 0;
  if (document.text !== undefined && wantsBrowser) return null;
  const skipped = [
    settings.screenshot ? 'screenshot' : null,
    settings.actions.length > 0 ? 'actions' : null,
    settings.printPdf && document.contentType !== 'application/pdf' ? 'PDF printing' : null,
  ].filter((s): s is string => s !== null);
  const warnings = [...(document.warnings ?? [])];
  if (skipped.length > 0) warnings.push(`the target is ${document.contentType}: ${skipped.join(', ')} not applied`);
  return { ...document, engine: 'playwright', ...(warnings.length > 0 ? { warnings } : {}) };
}

function toSnapshot(req: PageRequest, document: PageSnapshot, out: RenderOutput, session: ProxySession): PageSnapshot {
  const nav = out.navigated;
  const sameDocument = stripHash(out.finalUrl) === stripHash(document.finalUrl);
  const warnings = [...(document.warnings ?? []), ...out.warnings];
  const refused = [...out.refused, ...session.log.refused];
  if (refused.length > 0) {
    warnings.push(`the outbound guard refused ${refused.length} request(s) the page made (first: ${refused[0]})`);
  }
  const snapshot: PageSnapshot = {
    url: req.url,
    finalUrl: out.finalUrl,
    statusCode: nav?.statusCode ?? document.statusCode,
    headers: nav?.headers ?? document.headers,
    contentType: nav?.contentType ?? document.contentType,
    body: nav ? Buffer.from(out.html) : document.body,
    text: out.html,
    engine: 'playwright',
    redirects: sameDocument ? document.redirects : [...document.redirects, document.finalUrl],
  };
  const charset = nav ? 'utf-8' : document.charset;
  if (charset) snapshot.charset = charset;
  if (out.screenshot) snapshot.screenshot = out.screenshot;
  if (out.pdf) snapshot.pdf = out.pdf;
  if (out.actionsOutput) snapshot.actionsOutput = out.actionsOutput;
  if (warnings.length > 0) snapshot.warnings = warnings;
  return snapshot;
}

/** Maps what the browser threw: renderer crash 502, browser gone → fallback, other browser errors 502. */
function browserFailure(err: unknown, phase: string, pageHeapMb: number): unknown {
  if (err instanceof AppError || err instanceof EngineFallbackError || !(err instanceof Error)) return err;
  const message = err.message;
  if (/Target crashed/i.test(message)) {
    return errors.upstream(
      `the page crashed the browser renderer (${phase.replace(/ did not finish$/, '')}); a page may use at most ${pageHeapMb} MB of JavaScript memory`,
      err,
    );
  }
  if (
    /Target page, context or browser has been closed|Browser has been closed|browser has disconnected/i.test(message)
  ) {
    return new EngineFallbackError(
      `the browser exited (${phase.replace(/ did not finish$/, '')}); it is restarted for the next page`,
      {
        cause: err,
      },
    );
  }
  if (/^(page|browserContext|browser|frame|locator|route|keyboard|mouse|elementHandle)\.\w+: /.test(message)) {
    return errors.upstream(`the browser failed (${phase.replace(/ did not finish$/, '')}): ${firstLine(err)}`, err);
  }
  return err;
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}

function stripHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
