import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import { createBrowserEngine, type BrowserEngine } from '../playwright/browser-engine.js';
import type { GuardProxyOptions } from '../playwright/guard-proxy.js';
import { connectRemoteBrowser } from './cdp-connection.js';

export interface CdpEngineOptions {
  guard: OutboundGuard;
  /** BROWSER_CDP_URL. */
  url: string;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** Pages rendered at once in the remote browser (BROWSER_CDP_POOL_SIZE), default 4. */
  poolSize?: number;
  /** Where the guard proxy listens and how the remote browser reaches it (BROWSER_CDP_PROXY_*). */
  proxy?: GuardProxyOptions;
  /** Longest wait for the remote browser to connect (BROWSER_CDP_CONNECT_TIMEOUT_MS), default 10 s. */
  browserConnectTimeoutMs?: number;
  /** Default 20: above the local `playwright`, below `http`. */
  priority?: number;
}

/** Pages fail at once for this long after a failed connection, doubling, at most 30 s. */
const retryDelayMs = (failures: number) => Math.min(30_000, 1000 * 2 ** (failures - 1));

/**
 * The `cdp` engine: a remote Chrome (browserless, a Chrome started with
 * `--remote-debugging-port`) driven over the DevTools protocol, rendering exactly as the
 * `playwright` engine does (the shared browser engine): the document fetched in Node, fresh
 * contexts, the route layer, and every request the remote browser makes going through this
 * service's guard proxy (the remote browser resolves and connects to nothing itself). Connected
 * on start, connected again whenever the remote goes away. See docs/engines.md, "The cdp engine".
 *
 * @example
 * const engine = createCdpEngine({ guard, url: 'ws://browserless:3000?token=…', connectTimeoutMs: 10_000, maxResponseBytes: 20 << 20,
 *   proxy: { listenHost: '0.0.0.0', advertisedHost: 'gleaner' } });
 */
export function createCdpEngine(options: CdpEngineOptions): BrowserEngine {
  const timeoutMs = options.browserConnectTimeoutMs ?? 10_000;
  return createBrowserEngine({
    id: 'cdp',
    priority: options.priority ?? 20,
    guard: options.guard,
    connectTimeoutMs: options.connectTimeoutMs,
    maxResponseBytes: options.maxResponseBytes,
    poolSize: options.poolSize ?? 4,
    // The remote's life is its operator's: it is never restarted from here.
    restartAfterPages: Number.POSITIVE_INFINITY,
    proxy: options.proxy,
    source: {
      open: ({ guardProxy }) => connectRemoteBrowser({ url: options.url, timeoutMs }, guardProxy),
      retryDelayMs,
      reopen: true,
      wording: {
        openFailed: 'the remote browser is not available',
        lost: 'the remote browser went away',
        recovery: 'it is connected to again for the next page',
      },
    },
  });
}
