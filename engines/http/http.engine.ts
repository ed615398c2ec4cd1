import { createDeadline } from '../../src/engine/deadline.js';
import { EngineFallbackError } from '../../src/engine/errors.js';
import { createGuardedAgents } from '../../src/engine/guarded-agents.js';
import { networkFailure } from '../../src/engine/network-errors.js';
import type { OutboundGuard } from '../../src/engine/outbound-guard.js';
import { NO_CAPABILITIES, type PageRequest, type PageSnapshot, type ScrapeEngine } from '../../src/engine/types.js';
import { errors } from '../../src/errors.js';
import { createHeaderPool, mergeHeaders } from './browser-headers.js';
import { decodeBody } from './decode-body.js';
import { createHopClient, fetchHop, type HopResponse } from './fetch-hop.js';

export interface HttpEngineOptions {
  guard: OutboundGuard;
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** Fixed User-Agent (SCRAPE_USER_AGENT); null: realistic browser headers. */
  userAgent?: string | null;
  /** Default 10. */
  maxRedirects?: number;
  /** Default 100: plain HTTP is the cheapest engine, tried first when it is capable. */
  priority?: number;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * The plain HTTP engine (got-scraping): no scripts, fastest, honours proxies.
 *
 * Every hop is a separate request through the guarded agents, so each redirect target is
 * checked at connect time; through a proxy the proxy resolves the target, so each hop is
 * checked with `guard.assertAllowed` first (see docs/engines.md, "Outbound guard").
 *
 * @example
 * const engine = createHttpEngine({ guard, connectTimeoutMs: 10_000, maxResponseBytes: 20 << 20 });
 * const page = await engine.fetchPage({ url: 'https://example.com/', timeoutMs: 30_000 }, signal);
 */
export function createHttpEngine(options: HttpEngineOptions): ScrapeEngine {
  const { guard, connectTimeoutMs, maxResponseBytes } = options;
  const maxRedirects = options.maxRedirects ?? 10;
  const agents = createGuardedAgents(guard);
  const client = createHopClient(agents, connectTimeoutMs);
  const nextHeaders = createHeaderPool(options.userAgent ?? null);

  async function fetchPage(req: PageRequest, signal: AbortSignal): Promise<PageSnapshot> {
    const proxyUrl = req.proxy?.url;
    if (proxyUrl && !/^https?:/i.test(proxyUrl)) {
      throw new EngineFallbackError(`proxy scheme ${proxyUrl.split(':')[0]} is not supported by the http engine`);
    }
    let url = guard.checkUrl(req.url);
    const deadline = createDeadline(req.timeoutMs, signal);
    const redirects: string[] = [];
    let headers = mergeHeaders(nextHeaders(), req.headers);
    try {
      for (;;) {
        if (proxyUrl) await guard.assertAllowed(url);
        const hop = await fetchHop(client, url, {
          headers,
          signal: deadline.signal,
          proxyUrl,
          maxBytes: maxResponseBytes,
        });
        const location = REDIRECT_STATUSES.has(hop.statusCode) ? hop.headers.location : undefined;
        if (location === undefined) return toSnapshot(req.url, url, hop, redirects);
        if (redirects.length >= maxRedirects) {
          throw errors.upstream(`too many redirects: more than ${maxRedirects} starting at ${req.url}`);
        }
        const next = resolveLocation(location, url);
        redirects.push(url.href);
        if (next.origin !== url.origin) headers = withoutCredentials(headers);
        url = guard.checkUrl(next);
      }
    } catch (err) {
      const explained = deadline.explain(err, `no complete response from ${url.host}`);
      if (explained !== err) throw explained;
      throw networkFailure(err, url, { connectTimeoutMs }) ?? err;
    } finally {
      deadline.dispose();
    }
  }

  return {
    id: 'http',
    priority: options.priority ?? 100,
    capabilities: { ...NO_CAPABILITIES, proxy: true },
    fetchPage,
    async stop() {
      agents.destroy();
    },
  };
}

function resolveLocation(location: string, base: URL): URL {
  try {
    return new URL(location, base);
  } catch {
    throw errors.upstream(`${base.host} redirected to an invalid location ${JSON.stringify(location.slice(0, 200))}`);
  }
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  const copy = { ...headers };
  for (const name of CREDENTIAL_HEADERS) delete copy[name];
  return copy;
}

function toSnapshot(requested: string, finalUrl: URL, hop: HopResponse, redirects: string[]): PageSnapshot {
  const decoded = decodeBody(hop.body, hop.headers['content-type']);
  const snapshot: PageSnapshot = {
    url: requested,
    finalUrl: finalUrl.href,
    statusCode: hop.statusCode,
    headers: hop.headers,
    contentType: decoded.contentType,
    body: hop.body,
    engine: 'http',
    redirects,
  };
  if (decoded.text !== undefined) {
    snapshot.text = decoded.text;
    snapshot.charset = decoded.charset;
  }
  if (decoded.contentType === 'application/pdf') snapshot.pdf = hop.body;
  return snapshot;
}
