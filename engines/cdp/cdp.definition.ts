import { z } from 'zod';
import { defineEngine, unavailable } from '../../src/engine/engine-definition.js';
import { int, type ParsedOf, type SettingsTable } from '../../src/settings.js';
import { createCdpEngine } from './cdp.engine.js';

export const CDP_SETTINGS = {
  BROWSER_CDP_URL: {
    schema: z.url({ protocol: /^(wss?|https?)$/, error: 'expected a ws(s):// or http(s):// URL' }),
    doc: 'A remote Chrome driven over the DevTools protocol (browserless `ws://browserless:3000?token=…`, or a Chrome started with `--remote-debugging-port`: `http://chrome:9222`): enables the `cdp` engine, tried before the local `playwright` one. It must reach this service at BROWSER_CDP_PROXY_HOST. Its token is never logged or shown.',
  },
  BROWSER_CDP_POOL_SIZE: {
    schema: int(1, 64),
    default: '4',
    doc: 'Pages rendered at once in the remote browser (one fresh context each); more wait their turn within their time budget.',
  },
  BROWSER_CDP_PROXY_LISTEN: {
    schema: z.string().min(1),
    default: '127.0.0.1',
    doc: "Interface of this service on which the remote browser's guard proxy listens (every request the remote browser makes goes through it). 127.0.0.1 serves a browser on this machine; `0.0.0.0` one elsewhere (each page then gets its own proxy credentials).",
  },
  BROWSER_CDP_PROXY_HOST: {
    schema: z.string().min(1),
    doc: 'Host name or address of this service as the remote browser reaches it (`gleaner` in a compose network). Unset: BROWSER_CDP_PROXY_LISTEN (127.0.0.1 when that is 0.0.0.0). Checked on every connection: a browser that cannot reach it is not used.',
  },
  BROWSER_CDP_CONNECT_TIMEOUT_MS: {
    schema: int(500, 120_000),
    default: '10000',
    doc: 'Longest wait for the remote browser to accept a connection (and to reach the guard proxy). While it cannot be reached, pages go to other engines and it is tried again after 1 s, doubling to 30 s.',
  },
} satisfies SettingsTable;

/** `config.cdp`: the remote browser; null when BROWSER_CDP_URL is unset. */
export interface CdpSettings {
  url: string;
  poolSize: number;
  proxyListen: string;
  proxyHost: string | null;
  connectTimeoutMs: number;
}

export function cdpSettings(v: ParsedOf<typeof CDP_SETTINGS>): CdpSettings | null {
  if (!v.BROWSER_CDP_URL) return null;
  return {
    url: v.BROWSER_CDP_URL,
    poolSize: v.BROWSER_CDP_POOL_SIZE,
    proxyListen: v.BROWSER_CDP_PROXY_LISTEN,
    proxyHost: v.BROWSER_CDP_PROXY_HOST ?? null,
    connectTimeoutMs: v.BROWSER_CDP_CONNECT_TIMEOUT_MS,
  };
}

/**
 * `cdp`: a remote Chrome or browserless over the DevTools protocol, with the capabilities of the
 * local browser engine; every request it makes goes through this service's outbound guard.
 */
export const cdpEngine = defineEngine({
  id: 'cdp',
  kind: 'scrape',
  description: 'A remote Chrome or browserless over the DevTools protocol: scripts, actions, screenshots, PDFs',
  capabilities: ['javascript', 'actions', 'screenshot', 'pdf', 'screen', 'proxy'],
  priority: 20,
  settings: CDP_SETTINGS,
  configKey: 'cdp',
  config: cdpSettings,
  create: ({ config, settings, guard, priority }) => {
    if (!settings) return unavailable('no remote browser is configured (set BROWSER_CDP_URL)');
    return createCdpEngine({
      guard,
      url: settings.url,
      connectTimeoutMs: config.scrape.connectTimeoutMs,
      maxResponseBytes: config.scrape.maxResponseBytes,
      poolSize: settings.poolSize,
      browserConnectTimeoutMs: settings.connectTimeoutMs,
      proxy: { listenHost: settings.proxyListen, advertisedHost: settings.proxyHost ?? undefined },
      priority,
    });
  },
});
