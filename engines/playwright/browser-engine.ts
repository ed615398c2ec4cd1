import type { Browser, BrowserContext } from 'playwright-core';
import { createDeadline } from '../../src/engine/deadline.js';
import { EngineFallbackError } from '../../src/engine/errors.js';
import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import type { EngineState, PageRequest, PageSnapshot, ScrapeEngine } from '../../src/engine/types.js';
import { redactProxyUrl } from '../../src/engine/proxy-pool.js';
import { AppError, errors } from '../../src/errors.js';
import { createHttpEngine } from '../http/http.engine.js';
import { contextOptions, navigationHeaders } from './browser-identity.js';
import {
  createBrowserPool,
  type BrowserLease,
  type BrowserPoolOptions,
  type BrowserPoolStats,
  type OpenedBrowser,
} from './browser-pool.js';
import { validateBrowserSettings, type RenderSettings } from './browser-settings.js';
import { startGuardProxy, type GuardProxy, type GuardProxyOptions, type ProxySession } from './guard-proxy.js';
import { renderPage } from './render-page.js';
import { notRendered, toSnapshot } from './browser-snapshot.js';

/**
 * Where the engine's browser comes from: launched on this machine (`playwright`) or connected to
 * over the DevTools protocol (`cdp`). Everything else (the document fetched in Node, contexts,
 * the route layer, the guard proxy, actions, captures) is the same code.
 */
export interface BrowserSource {
  /**
   * Launches or connects to a browser (the pool calls it on first use and after a browser is
   * gone). `guardProxy` is the engine's proxy, for a source that checks the browser reaches it.
   */
  open(tools: { guardProxy(): GuardProxy }): Promise<OpenedBrowser>;
  /** After failed opens in a row, how long pages fail at once before the next try (see the pool). */
  retryDelayMs?: BrowserPoolOptions['retryDelayMs'];
  /** Open a browser again as soon as the current one is lost (a remote browser), not on the next page. */
  reopen?: boolean;
  /**
   * The browser's major version for the user agent, without opening it (`chromium --version`);
   * absent: read from the browser once it is open (a remote one).
   */
  majorVersion?(): Promise<number | null>;
  /** Words for errors: what could not be opened, and what went away. */
  wording: {
    /** `Chromium could not be started` */
    openFailed: string;
    /** `the browser exited` */
    lost: string;
    /** `it is restarted for the next page` */
    recovery: string;
  };
  /** The renderer's heap limit, for the crash message (unknown for a remote browser). */
  pageHeapMb?: number;
}

export interface BrowserEngineOptions {
  id: string;
  priority: number;
  guard: OutboundGuard;
  source: BrowserSource;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** Pages rendered at once. */
  poolSize: number;
  /** Pages one browser renders before it is replaced (Infinity: never). */
  restartAfterPages: number;
  /** Where the guard proxy listens and how browsers reach it (default: 127.0.0.1, no credentials). */
  proxy?: GuardProxyOptions;
}

/** The engine plus what operators and benchmarks look at. */
export interface BrowserEngine extends ScrapeEngine {
  start(): Promise<void>;
  stop(): Promise<void>;
  stats(): BrowserPoolStats;
  state(): EngineState;
}

/** A Chromium that does not report its version is treated as this one (user agent only). */
const FALLBACK_MAJOR = 130;

/**
 * A browser engine: Chromium driven by playwright-core. The main document is fetched in Node
 * exactly as the http engine fetches it (guard at connect time, each redirect checked, size
 * limit, charset), then handed to a fresh browser context as the answer to its navigation;
 * everything the page loads afterwards goes through the route layer and the guard proxy, so the
 * browser never resolves or connects to a target itself. See docs/engines.md, "The playwright
 * engine" and "The cdp engine".
 *
 * @example
 * const engine = createBrowserEngine({ id: 'playwright', priority: 10, guard, source, connectTimeoutMs: 10_000,
 *   maxResponseBytes: 20 << 20, poolSize: 4, restartAfterPages: 500 });
 */
export function createBrowserEngine(options: BrowserEngineOptions): BrowserEngine {
  const { guard, source, id } = options;
  const documents = createHttpEngine({
    guard,
    connectTimeoutMs: options.connectTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
  });
  let proxy: GuardProxy | null = null;
  const guardProxy = () => (proxy ??= startGuardProxy(guard, options.proxy));
  const pool = createBrowserPool({
    open: () => source.open({ guardProxy }),
    retryDelayMs: source.retryDelayMs,
    reopen: source.reopen,
    size: options.poolSize,
    restartAfterPages: options.restartAfterPages,
  });
  let major: Promise<number> | null = null;

  /** The version for the user agent; a remote browser is opened for it (a failure is the page's fallback). */
  async function browserMajor(): Promise<number> {
    if (source.majorVersion) return (major ??= source.majorVersion().then((v) => v ?? FALLBACK_MAJOR));
    if (major) return major;
    const browser = await pool.warm().catch((err: unknown) => {
      throw new EngineFallbackError(`${source.wording.openFailed}: ${firstLine(err)}`, { cause: err });
    });
    return (major = Promise.resolve(parseMajor(browser.version()) ?? FALLBACK_MAJOR));
  }

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
      const skipped = notRendered(document, settings, id);
      if (skipped) return skipped;
      setPhase('waiting for a free browser page');
      const lease = await acquire(deadline.signal);
      const log = session.log;
      const render = { document, settings, guard, remaining, signal: deadline.signal, setPhase, log };
      const out = await inContext(lease, contextOptions(settings, ua, session.proxy), deadline.signal, (context) =>
        renderPage(context, render),
      );
      return toSnapshot(req, document, out, session, id);
    } catch (err) {
      const explained = deadline.explain(err, phase);
      if (explained !== err) throw explained;
      throw browserFailure(err, phase, source);
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
    const proxy = socks ? { url: session.localUrl } : upstream;
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
      throw new EngineFallbackError(`${source.wording.openFailed}: ${firstLine(err)}`, { cause: err });
    }
  }

  return {
    id,
    priority: options.priority,
    concurrency: options.poolSize,
    capabilities: { javascript: true, actions: true, screenshot: true, pdf: true, screen: true, proxy: true },
    async start() {
      // The version (for the user agent), in the background: a local browser only reports it (it
      // starts on first use); a remote one is connected to, so its state shows at once.
      void browserMajor().catch(() => undefined);
    },
    fetchPage,
    stats: () => pool.stats(),
    state: () => pool.state(),
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

/** Maps what the browser threw: renderer crash 502, browser gone → fallback, other browser errors 502. */
function browserFailure(err: unknown, phase: string, source: BrowserSource): unknown {
  if (err instanceof AppError || err instanceof EngineFallbackError || !(err instanceof Error)) return err;
  const message = err.message;
  const during = phase.replace(/ did not finish$/, '');
  if (/Target crashed/i.test(message)) {
    const limit = source.pageHeapMb ? `; a page may use at most ${source.pageHeapMb} MB of JavaScript memory` : '';
    return errors.upstream(`the page crashed the browser renderer (${during})${limit}`, err);
  }
  if (
    /Target page, context or browser has been closed|Browser has been closed|browser has disconnected/i.test(message)
  ) {
    return new EngineFallbackError(`${source.wording.lost} (${during}); ${source.wording.recovery}`, { cause: err });
  }
  if (/^(page|browserContext|browser|frame|locator|route|keyboard|mouse|elementHandle)\.\w+: /.test(message)) {
    return errors.upstream(`the browser failed (${during}): ${firstLine(err)}`, err);
  }
  return err;
}

/** `131.0.6778.85` → 131. */
function parseMajor(version: string): number | null {
  const major = Number(/^(\d+)\./.exec(version)?.[1]);
  return Number.isInteger(major) && major > 0 ? major : null;
}

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').slice(0, 300);
}
