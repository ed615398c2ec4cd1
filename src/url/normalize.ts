import { getDomain, parse as parseHost } from 'tldts';

/**
 * URL normalisation, dedupe and site scope for discovery (maps and crawls).
 * The rules are listed in docs/discovery.md; the short version:
 * - `normalizeUrl` gives the URL we store and fetch: it only makes changes that cannot
 *   change which resource a server returns (case of scheme/host, IDN, default port,
 *   dot segments, percent-encoding of unreserved characters, fragment) plus two deliberate
 *   ones: tracking parameters are dropped and query parameters are sorted.
 * - `dedupeKey` is coarser and only decides "same page?": it also ignores the scheme,
 *   a leading `www.` and a trailing slash, because sites serve those variants as one page.
 */

/** Query parameters that only identify a campaign or click, never content. Compared lowercase. */
const TRACKING_PARAMS = new Set([
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'gad_source', 'fbclid', 'msclkid', 'yclid', 'twclid',
  'ttclid', 'li_fat_id', 'igshid', 'mc_cid', 'mc_eid', '_hsenc', '_hsmi', '__hstc', '__hssc', '__hsfp',
  'hsctatracking', 'ref_src', 'ref_url', '_ga', '_gl', 'mkt_tok', 'vero_id', 'vero_conv', 'oly_anon_id',
  'oly_enc_id', 'rb_clickid', 's_cid', 'wickedid', 'epik', 'srsltid', 'spm', 'si',
]); // prettier-ignore

/** Prefixes of tracking parameter families (`utm_source`, `utm_medium`, `pk_campaign`, …). */
const TRACKING_PREFIXES = ['utm_', 'pk_', 'mtm_', 'matomo_', 'hsa_'];

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

export interface NormalizeOptions {
  /** Base for relative references (the page or sitemap the link was found on). */
  base?: string | URL;
  /** Drop tracking parameters (default true). */
  removeTracking?: boolean;
  /** Sort query parameters by name, stable for repeated names (default true). */
  sortQuery?: boolean;
}

/** True when the query parameter name is a known tracking parameter. */
export function isTrackingParam(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_PARAMS.has(lower) || TRACKING_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Decodes percent-escapes of unreserved characters (RFC 3986 §2.3) and upper-cases the hex
 * digits of every other escape, so `%7e`, `%7E` and `~` compare equal while `%2F` stays `%2F`.
 */
export function normalizePercentEncoding(text: string): string {
  if (!text.includes('%')) return text;
  return text.replace(/%([0-9a-fA-F]{2})/g, (_match: string, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

function normalizeQuery(search: string, options: NormalizeOptions): string {
  if (search.length <= 1) return '';
  const pieces: { name: string; raw: string }[] = [];
  for (const piece of search.slice(1).split('&')) {
    if (piece === '') continue;
    const raw = normalizePercentEncoding(piece);
    const eq = raw.indexOf('=');
    const name = decodeName(eq < 0 ? raw : raw.slice(0, eq));
    if (options.removeTracking !== false && isTrackingParam(name)) continue;
    pieces.push({ name, raw });
  }
  // Array.prototype.sort is stable: repeated names keep their relative order (a=2&a=1 stays).
  if (options.sortQuery !== false) pieces.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return pieces.length === 0 ? '' : `?${pieces.map((p) => p.raw).join('&')}`;
}

function parseHttp(input: string | URL, base?: string | URL): URL | null {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input.trim(), base) : new URL(input.href);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // `example.com.` and `example.com` are the same DNS name; the URL parser keeps the dot.
  const host = url.hostname.replace(/\.+$/, '');
  if (host === '') return null;
  if (host !== url.hostname) url.hostname = host;
  return url;
}

/**
 * The canonical form of an http(s) URL, or null when `input` (resolved against `base`) is not
 * an http(s) URL. The WHATWG parser already lower-cases scheme and host, converts IDNs to
 * punycode, drops default ports and resolves dot segments; this adds the rest.
 *
 * @example
 * normalizeUrl('HTTP://Example.COM:80/a/./b/../%7euser/?utm_source=x&b=2&a=1#top');
 * // → 'http://example.com/a/~user/?a=1&b=2'
 */
export function normalizeUrl(input: string | URL, options: NormalizeOptions = {}): string | null {
  return canonicalize(input, options)?.href ?? null;
}

/** `www.example.com.` → `example.com`: the host a person means. */
export function siteHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/\.+$/, '')
    .replace(/^www\./, '');
}

/**
 * The key two URLs share when they are the same page for dedupe purposes: the normalised URL
 * without its scheme, a leading `www.` and trailing slashes of the path. Null for non-http(s).
 *
 * @example
 * dedupeKey('https://www.example.com/docs/') === dedupeKey('http://example.com/docs'); // true
 */
export function dedupeKey(input: string | URL): string | null {
  return canonicalize(input, {})?.key ?? null;
}

/** One parse gives both the normalised URL and its dedupe key (hot path: 100k-URL sitemaps). */
function canonicalize(input: string | URL, options: NormalizeOptions): { href: string; key: string } | null {
  const url = parseHttp(input, options.base);
  if (url === null) return null;
  const userinfo = url.username === '' ? '' : `${url.username}${url.password === '' ? '' : `:${url.password}`}@`;
  const path = normalizePercentEncoding(url.pathname);
  const query = normalizeQuery(url.search, options);
  const port = url.port === '' ? '' : `:${url.port}`;
  return {
    href: `${url.protocol}//${userinfo}${url.host}${path}${query}`,
    key: `${siteHost(url.hostname)}${port}${path.replace(/\/+$/, '')}${query}`,
  };
}

/** Remembers pages by `dedupeKey`; the first spelling seen is the one kept. */
export interface UrlDeduper {
  /** The normalised URL when it is a new page, null when seen before or not http(s). */
  add(url: string, base?: string | URL): string | null;
  has(url: string): boolean;
  readonly size: number;
}

export function createUrlDeduper(): UrlDeduper {
  const seen = new Set<string>();
  return {
    add(url, base) {
      const canonical = canonicalize(url, { base });
      if (canonical === null || seen.has(canonical.key)) return null;
      seen.add(canonical.key);
      return canonical.href;
    },
    has(url) {
      const key = dedupeKey(url);
      return key !== null && seen.has(key);
    },
    get size() {
      return seen.size;
    },
  };
}

/**
 * Normalises and dedupes a list, keeping first-seen order. When the same page appears as
 * http and later as https, the https spelling replaces it in place (sites move to https and
 * old links linger); otherwise the first spelling wins. Invalid and non-http(s) entries are dropped.
 */
export function dedupeUrls(urls: Iterable<string>): string[] {
  const byKey = new Map<string, string>();
  for (const url of urls) {
    const canonical = canonicalize(url, {});
    if (canonical === null) continue;
    const { href: normalized, key } = canonical;
    const previous = byKey.get(key);
    if (previous === undefined || (previous.startsWith('http:') && normalized.startsWith('https:'))) {
      byKey.set(key, normalized);
    }
  }
  return [...byKey.values()];
}

/** True for a string that parses as an absolute http(s) URL with a host. */
export function isHttpUrl(input: unknown): input is string {
  return typeof input === 'string' && parseHttp(input) !== null;
}

/**
 * The registrable domain (public suffix + one label, private suffixes such as `github.io`
 * included), or null for IP addresses and single-label or suffix-only names like `localhost`.
 */
export function registrableDomain(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (parseHost(host).isIp === true) return null;
  return getDomain(host, { allowPrivateDomains: true });
}

export interface SameSiteOptions {
  /** Accept any host under the root's registrable domain (default false: same host only). */
  includeSubdomain?: boolean;
}

function hostOf(input: string | URL): string | null {
  const url = parseHttp(input);
  return url === null ? null : url.hostname;
}

/**
 * Whether `url` belongs to the site of `root`. Scheme and port are ignored (as for cookies);
 * `www.` is the same host as the bare name. With `includeSubdomain`, every host under the
 * root's registrable domain matches (`docs.example.com` ⇄ `example.com` ⇄ `blog.example.com`);
 * names without one (`localhost`, `site.test` suffixes) use the root host itself as the base,
 * so `docs.localhost` is a subdomain of `localhost`. IP hosts only ever match themselves.
 *
 * @example
 * sameSite('https://docs.example.com/x', 'https://example.com', { includeSubdomain: true }); // true
 * sameSite('https://docs.example.com/x', 'https://example.com'); // false
 */
export function sameSite(url: string | URL, root: string | URL, options: SameSiteOptions = {}): boolean {
  const host = hostOf(url);
  const rootHost = hostOf(root);
  if (host === null || rootHost === null) return false;
  // IP hosts need no case of their own: they have no registrable domain, and no valid host
  // name ends in ".<an IP>" (the URL parser rejects a name whose last label is numeric).
  const a = siteHost(host);
  const b = siteHost(rootHost);
  if (a === b) return true;
  if (options.includeSubdomain !== true) return false;
  const base = registrableDomain(b) ?? b;
  return a === base || a.endsWith(`.${base}`);
}
