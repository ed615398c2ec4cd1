import { AppError } from '../errors.js';
import type { ProxyChoice } from './types.js';

/** Proxy schemes the engines can use (the http engine speaks http/https; the browser engine all of them). */
const PROXY_SCHEMES = new Set(['http:', 'https:', 'socks4:', 'socks5:']);
const COUNTRY = /^[a-z]{2}$/i;
/** A proxy that failed is skipped for this long (doubling per consecutive failure, capped). */
const COOLDOWN_MS = 30_000;
const MAX_COOLDOWN_MS = 10 * 60_000;

/** One configured upstream proxy. */
export interface ProxyEntry {
  /** `scheme://[user:pass@]host:port`, without the country tags. */
  url: string;
  /** Upper-case ISO 3166-1 alpha-2 codes this proxy exits in; empty: a general-purpose proxy. */
  countries: string[];
}

/**
 * Parses PROXY_URLS entries: `scheme://[user:pass@]host:port[#CC|CC…]`, where the fragment lists
 * the countries the proxy exits in (`http://u:p@10.0.0.5:8000#us|ca`). Schemes: http, https,
 * socks4, socks5. A `#` inside a password must be percent-encoded (`%23`), as in any URL.
 * Throws an Error naming the bad entry (credentials redacted).
 *
 * @example
 * parseProxyList(['http://u:p@proxy.example:8000#us|CA', 'socks5://10.0.0.9:1080']);
 * // [{ url: 'http://u:p@proxy.example:8000', countries: ['US', 'CA'] }, { url: 'socks5://10.0.0.9:1080', countries: [] }]
 */
export function parseProxyList(entries: readonly string[]): ProxyEntry[] {
  return entries.map((entry) => parseProxyEntry(entry.trim()));
}

function parseProxyEntry(entry: string): ProxyEntry {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(
      `${JSON.stringify(redactText(entry))} is not a URL (expected scheme://[user:pass@]host:port[#cc|cc])`,
    );
  }
  const shown = redactProxyUrl(entry);
  if (!PROXY_SCHEMES.has(url.protocol)) {
    throw new Error(`${shown}: scheme ${url.protocol.slice(0, -1)} is not supported (http, https, socks4, socks5)`);
  }
  if (url.hostname === '') throw new Error(`${shown}: needs a host`);
  // WHATWG URLs drop default ports (80, 443); socks has none, so its port must be written.
  if (url.port === '' && !url.protocol.startsWith('http')) throw new Error(`${shown}: needs an explicit port`);
  if (url.pathname !== '/' && url.pathname !== '' && url.protocol.startsWith('http')) {
    throw new Error(`${shown}: a proxy URL has no path`);
  }
  const tags = url.hash.replace(/^#/, '');
  const countries = tags === '' ? [] : tags.split('|').map((t) => t.trim());
  for (const country of countries) {
    if (!COUNTRY.test(country)) {
      throw new Error(`${shown}: country tag ${JSON.stringify(country)} is not an ISO 3166-1 alpha-2 code`);
    }
  }
  url.hash = '';
  const bare = `${url.protocol}//${url.username || url.password ? `${url.username}:${url.password}@` : ''}${url.host}`;
  return { url: bare, countries: [...new Set(countries.map((c) => c.toUpperCase()))] };
}

/** `http://user:secret@host:8000` → `http://user:***@host:8000`, for errors and logs. */
export function redactProxyUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.password) url.password = '***';
    url.hash = '';
    return url.href.replace(/\/$/, '');
  } catch {
    return redactText(text);
  }
}

function redactText(text: string): string {
  return text.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@').slice(0, 200);
}

/** What `ProxyPool.plan` proposes for one request. */
export interface ProxyPlan {
  /** Proxies to try, best first (healthy ones in rotation order, then cooling-down ones); empty: go direct. */
  proxies: ProxyChoice[];
  /** Set when `country` was asked for and no proxy exits there: geo-routing is not applied. */
  warning?: string;
}

export interface ProxyRunOptions {
  /** Proxies tried at most (default 3). */
  maxAttempts?: number;
  /** Stops rotating once aborted. */
  signal?: AbortSignal;
  /** Whether a failure may be the proxy's fault, so another proxy is worth a try (default: 502 and 504 `AppError`s). */
  isProxyFailure?: (err: unknown) => boolean;
}

export interface ProxyRunResult<T> {
  value: T;
  /** The proxy that worked, or null when the request went direct. */
  proxy: ProxyChoice | null;
  /** Notes for the response (`warning`): geo-routing not applied, proxies rotated. */
  warnings: string[];
}

/**
 * The operator's proxies (PROXY_URLS), shared by every engine. A request with a `country` goes
 * through a proxy tagged with it; a request without one through an untagged proxy; with no
 * matching proxy the request goes direct (for a country, with a warning: decisions.md). A proxy
 * whose request failed cools down and the next one is used ("rotation on failure").
 *
 * @example
 * const proxies = createProxyPool(config.proxies);
 * const { value, warnings } = await proxies.run(command.country, (proxy) =>
 *   engines.fetch({ url, timeoutMs, proxy }, { needs: proxy ? ['proxy'] : [], signal }));
 */
export interface ProxyPool {
  readonly entries: readonly ProxyEntry[];
  plan(country?: string | null): ProxyPlan;
  /** Marks a proxy as failing: it cools down (30 s, doubling per consecutive failure, at most 10 min). */
  reportFailure(proxy: ProxyChoice): void;
  reportSuccess(proxy: ProxyChoice): void;
  /** Runs `attempt` through the planned proxies, rotating to the next one on a proxy failure. */
  run<T>(
    country: string | null | undefined,
    attempt: (proxy: ProxyChoice | null) => Promise<T>,
    options?: ProxyRunOptions,
  ): Promise<ProxyRunResult<T>>;
}

interface Health {
  failures: number;
  until: number;
}

export function createProxyPool(entries: readonly ProxyEntry[], now: () => number = Date.now): ProxyPool {
  const health = new Map<string, Health>();
  const cursors = new Map<string, number>();

  const group = (country: string | null): ProxyEntry[] =>
    entries.filter((e) => (country === null ? e.countries.length === 0 : e.countries.includes(country)));

  function order(key: string, members: ProxyEntry[], country: string | null): ProxyChoice[] {
    if (members.length === 0) return [];
    const start = cursors.get(key) ?? 0;
    cursors.set(key, (start + 1) % members.length);
    const rotated = [...members.slice(start % members.length), ...members.slice(0, start % members.length)];
    const at = now();
    const healthy = rotated.filter((e) => (health.get(e.url)?.until ?? 0) <= at);
    const cooling = rotated
      .filter((e) => (health.get(e.url)?.until ?? 0) > at)
      .sort((a, b) => health.get(a.url)!.until - health.get(b.url)!.until);
    return [...healthy, ...cooling].map((e) => (country ? { url: e.url, country } : { url: e.url }));
  }

  const pool: ProxyPool = {
    entries,
    plan(country) {
      const wanted = country ? country.toUpperCase() : null;
      if (wanted === null) return { proxies: order('*', group(null), null) };
      const tagged = group(wanted);
      if (tagged.length > 0) return { proxies: order(wanted, tagged, wanted) };
      return {
        proxies: order('*', group(null), null),
        warning: `no proxy for country ${wanted}; geo-routing was not applied`,
      };
    },
    reportFailure(proxy) {
      const failures = (health.get(proxy.url)?.failures ?? 0) + 1;
      const cooldown = Math.min(COOLDOWN_MS * 2 ** (failures - 1), MAX_COOLDOWN_MS);
      health.set(proxy.url, { failures, until: now() + cooldown });
    },
    reportSuccess(proxy) {
      health.delete(proxy.url);
    },
    async run(country, attempt, options = {}) {
      const { proxies, warning } = pool.plan(country);
      const warnings = warning ? [warning] : [];
      if (proxies.length === 0) return { value: await attempt(null), proxy: null, warnings };
      const isProxyFailure = options.isProxyFailure ?? defaultProxyFailure;
      const tries = proxies.slice(0, Math.max(1, options.maxAttempts ?? 3));
      for (const [index, proxy] of tries.entries()) {
        try {
          const value = await attempt(proxy);
          pool.reportSuccess(proxy);
          return { value, proxy, warnings };
        } catch (err) {
          if (!isProxyFailure(err)) throw err;
          pool.reportFailure(proxy);
          const last = index === tries.length - 1 || options.signal?.aborted === true;
          if (last) throw err;
          warnings.push(`proxy ${redactProxyUrl(proxy.url)} failed (${describe(err)}); retried through another proxy`);
        }
      }
      throw new Error('unreachable: the loop returns or throws');
    },
  };
  return pool;
}

function defaultProxyFailure(err: unknown): boolean {
  return err instanceof AppError && (err.kind === 'upstream' || err.kind === 'timeout');
}

function describe(err: unknown): string {
  const text = err instanceof AppError ? err.detail : err instanceof Error ? err.message : String(err);
  return text.slice(0, 200);
}
