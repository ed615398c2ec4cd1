import { gotScraping, type Context } from 'got-scraping';

/** Encodings Node can decode; browsers also offer zstd, which Node 20's zlib lacks. */
const ACCEPT_ENCODING = 'gzip, deflate, br';
const POOL_SIZE = 16;

/**
 * A small pool of realistic browser header sets, generated once and handed out in turn.
 * got-scraping would generate a fresh set per request (about 0.3 ms of CPU each, and an ALPN
 * probe connection for https that bypasses our connection guard), so the engine turns its
 * generator off and uses this pool instead.
 *
 * @example
 * const next = createHeaderPool(null);
 * const headers = { ...next(), ...req.headers };
 */
export function createHeaderPool(userAgent: string | null, size = POOL_SIZE): () => Record<string, string> {
  const generator = (gotScraping.defaults.options.context as Context).headerGenerator;
  const pool: Record<string, string>[] = [];
  for (let i = 0; i < size; i++) {
    const generated = generator
      ? generator.getHeaders({
          httpVersion: '1',
          browsers: ['chrome', 'firefox', 'edge', 'safari'],
          devices: ['desktop'],
          locales: ['en-US', 'en'],
        })
      : {};
    pool.push(normalize(generated, userAgent));
  }
  let next = 0;
  return () => {
    const headers = pool[next % pool.length]!;
    next = (next + 1) % pool.length;
    return { ...headers };
  };
}

function normalize(generated: Record<string, string>, userAgent: string | null): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(generated)) headers[name.toLowerCase()] = value;
  // The agent manages the connection; the first navigation of a session has no site relation.
  delete headers.connection;
  if (headers['sec-fetch-site']) headers['sec-fetch-site'] = 'none';
  headers['accept-encoding'] = ACCEPT_ENCODING;
  headers.accept ??= 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  if (userAgent) {
    headers['user-agent'] = userAgent;
    // Client hints would contradict an operator-chosen user agent.
    for (const name of Object.keys(headers)) if (name.startsWith('sec-ch-ua')) delete headers[name];
  }
  return headers;
}

/** Merges request headers over defaults, case-insensitively (the request's names win). */
export function mergeHeaders(
  base: Record<string, string>,
  extra: Record<string, string> | undefined,
): Record<string, string> {
  if (!extra) return base;
  for (const [name, value] of Object.entries(extra)) base[name.toLowerCase()] = value;
  return base;
}
