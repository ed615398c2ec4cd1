import type { DiscoveryFetcher } from '../../discovery/types.js';
import type { EngineRegistry } from '../../engine/registry.js';
import type { PageSnapshot } from '../../engine/types.js';

/** One page for link discovery: a snapshot for any HTTP status; rejects when no answer came. */
export type PageFetcher = (url: string, signal: AbortSignal) => Promise<PageSnapshot>;

export interface EngineFetchers {
  /** For sitemaps and robots.txt (`src/discovery`). */
  discovery: DiscoveryFetcher;
  /** For the pages link discovery reads. */
  page: PageFetcher;
}

export interface EngineFetcherOptions {
  /** Budget of one fetch (SCRAPE_TIMEOUT_MS); the caller's signal may end it sooner. */
  timeoutMs: number;
  /** The engine discovery uses; default `http` (no scripts: sitemaps and link lists need none). */
  engine?: string;
}

/**
 * Discovery's network access, through the engine registry: the plain `http` engine, so every
 * request goes through the outbound guard (checked at connect time, every redirect hop too),
 * the configured proxies and user agent, and the engine's response size limit, exactly as a
 * scrape would.
 *
 * A request that fails because the server closed the connection (ECONNRESET, EPIPE) is tried
 * once more.
 *
 * Differences from the `DiscoveryFetcher` contract, both safe for discovery:
 * - a body over the engine's limit (SCRAPE_MAX_RESPONSE_BYTES) is refused by the engine, so
 *   the fetch rejects (discovery reports `fetch_failed` naming the limit) instead of returning
 *   the first `maxBytes`; a body under the engine's limit but over `maxBytes` is cut to
 *   `maxBytes`, as the contract says;
 * - gzip is undone only for `Content-Encoding`; a `.gz` file (`application/gzip`) reaches
 *   discovery as its raw bytes, which discovery recognises by their magic number.
 *
 * @example
 * const { discovery, page } = createEngineFetchers(container.engines, { timeoutMs: 30_000 });
 * await collectSitemapUrls('https://example.com/', { fetch: discovery });
 */
export function createEngineFetchers(engines: EngineRegistry, options: EngineFetcherOptions): EngineFetchers {
  const engine = options.engine ?? 'http';
  const once = async (url: string, signal: AbortSignal) =>
    (await engines.fetch({ url, timeoutMs: options.timeoutMs }, { engine, escalate: false, signal })).snapshot;
  const page: PageFetcher = async (url, signal) => {
    try {
      return await once(url, signal);
    } catch (err) {
      // A kept-alive connection the server closed just as it was reused: one fresh try, as browsers do.
      // A map rests on a handful of documents; losing the main sitemap to this race loses the map.
      if (signal.aborted || !closedConnection(err)) throw err;
      return once(url, signal);
    }
  };
  const discovery: DiscoveryFetcher = async (url, { maxBytes, signal }) => {
    const snapshot = await page(url, signal ?? new AbortController().signal);
    const body = snapshot.body.length > maxBytes ? snapshot.body.subarray(0, maxBytes) : snapshot.body;
    return {
      status: snapshot.statusCode,
      finalUrl: snapshot.finalUrl,
      contentType: snapshot.headers['content-type'] ?? '',
      body,
    };
  };
  return { discovery, page };
}

/** ECONNRESET or EPIPE anywhere in the cause chain. */
function closedConnection(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === 'ECONNRESET' || code === 'EPIPE') return true;
    current = current.cause;
  }
  return false;
}
