import net from 'node:net';
import path from 'node:path';
import { locateChromium } from '../../engines/playwright/chromium-path.js';
import {
  createPlaywrightEngine,
  type PlaywrightEngine,
  type PlaywrightEngineOptions,
} from '../../engines/playwright/playwright.engine.js';
import { createOutboundGuard, type OutboundPolicy, type Resolver } from '../../src/engine/outbound-guard.js';
import type { PageRequest, PageSnapshot, ScrapeEngine } from '../../src/engine/types.js';
import { serveDir, startFixtureServer, type FixtureHandler, type FixtureServer } from '../support/fixture-server.js';

/** CI installs Debian's chromium (.ci/run); a missing browser fails the browser tests rather than skipping them. */
export const CHROMIUM = (() => {
  const found = locateChromium(null);
  if (found.path === null) throw new Error(found.reason);
  return found.path;
})();

export const JS_SITE_DIR = path.resolve(import.meta.dirname, '../fixtures/js-site');

/**
 * The JavaScript-only fixture site plus the API its pages call: `/api/items?page=N` (10 items a
 * page) and `/api/greeting?name=…`. Extra routes are added per test.
 */
export function startJsSite(extra: Record<string, FixtureHandler> = {}): Promise<FixtureServer> {
  return startFixtureServer({
    '/api/items': (_req, res, url) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      const items = Array.from({ length: 10 }, (_, i) => (page - 1) * 10 + i + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ items }));
    },
    '/api/greeting': (_req, res, url) => {
      const greeting = `Hello, ${url.searchParams.get('name') ?? 'stranger'}!`;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ greeting }));
    },
    '/*': serveDir(JS_SITE_DIR),
    ...extra,
  });
}

/** A test engine: small pool, small renderer heap (so a memory bomb crashes fast). */
export function makeEngine(
  policy: Partial<OutboundPolicy> = {},
  options: Partial<PlaywrightEngineOptions> & { resolve?: Resolver } = {},
): PlaywrightEngine {
  const { resolve, ...rest } = options;
  const guard = createOutboundGuard({ allowPrivate: true, denyDomains: [], ...policy }, resolve ? { resolve } : {});
  return createPlaywrightEngine({
    guard,
    executablePath: CHROMIUM,
    connectTimeoutMs: 2000,
    maxResponseBytes: 4 << 20,
    poolSize: 2,
    pageHeapMb: 256,
    ...rest,
  });
}

/**
 * The time budget of a test fetch that is not about time. Chromium needs ~0.5 s of CPU for a
 * fresh context and page even when the page is empty; under the rest of the suite on 2 cores a
 * scripted page can take several seconds, so the budget leaves room for a loaded machine.
 */
export const FETCH_BUDGET_MS = 30_000;

export function fetchWith(
  engine: ScrapeEngine,
  url: string,
  browser: PageRequest['browser'] = {},
  extra: Partial<PageRequest> = {},
): Promise<PageSnapshot> {
  return engine.fetchPage({ url, timeoutMs: FETCH_BUDGET_MS, browser, ...extra }, new AbortController().signal);
}

/**
 * A server that must never be reached: it counts TCP connections (so WebSocket upgrades and
 * CONNECT tunnels count too, not just HTTP requests) and answers anything with a small page.
 */
export interface SecretServer {
  readonly port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startSecretServer(): Promise<SecretServer> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 22\r\n\r\n<h1>internal admin</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height of a PNG, from its IHDR chunk; throws on anything that does not start as a PNG does. */
export function pngSize(png: Buffer | undefined): { width: number; height: number } {
  if (!png || png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('a PNG without IHDR first');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
