/**
 * What discovery needs from the network: one GET. The guarded HTTP engine (outbound network
 * policy, proxies, user agent) is plugged in here by the composition root; tests pass a
 * small real-HTTP fetcher against a local server.
 *
 * Contract:
 * - follow redirects (at most a handful) and report the URL that answered in `finalUrl`;
 * - stop reading after `opts.maxBytes` bytes of the (transport-decoded) body and return what
 *   was read: discovery asks for one byte more than its limit to tell "exactly at the limit"
 *   from "too large";
 * - resolve for any HTTP status (4xx and 5xx are answers, not failures); reject only when
 *   there is no answer (DNS, connect, TLS, timeout, abort, refused by network policy);
 * - honour `opts.signal`.
 *
 * @example
 * const fetcher: DiscoveryFetcher = async (url, { maxBytes, signal }) => {
 *   const res = await engine.get(url, { maxBytes, signal });
 *   return { status: res.status, finalUrl: res.url, contentType: res.headers['content-type'] ?? '', body: res.body };
 * };
 */
export type DiscoveryFetcher = (
  url: string,
  opts: { maxBytes: number; signal?: AbortSignal },
) => Promise<DiscoveryResponse>;

export interface DiscoveryResponse {
  status: number;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  /** The `Content-Type` header value, `''` when absent. */
  contentType: string;
  body: Buffer;
}

/** One page URL found by discovery, with the sitemap's last-modification time when given. */
export interface DiscoveredUrl {
  url: string;
  /** ISO 8601 (`Date.prototype.toISOString`) when the source gave a parseable date. */
  lastmod?: string;
}

/** Why a source yielded less than it could: reported beside the URLs, never thrown. */
export type DiscoveryErrorCode =
  | 'fetch_failed'
  | 'http_status'
  | 'too_large'
  | 'decompress_failed'
  | 'malformed'
  | 'not_a_sitemap'
  | 'max_depth'
  | 'max_sitemaps'
  | 'deadline';

export interface DiscoveryError {
  /** The document concerned (a sitemap or robots.txt URL). */
  url: string;
  code: DiscoveryErrorCode;
  message: string;
}
