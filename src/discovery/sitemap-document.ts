import iconv from 'iconv-lite';
import { normalizeUrl } from '../url/normalize.js';
import { gunzipBounded, isGzip } from './gzip.js';
import { readXmlSitemap, type RawEntry, type XmlSitemapKind } from './sitemap-xml.js';
import type { DiscoveredUrl, DiscoveryError } from './types.js';

/** What one sitemap document holds, already resolved and normalised. */
export interface ParsedSitemap {
  kind: XmlSitemapKind | 'text';
  /** Page URLs (urlset, plain text, RSS, Atom). */
  urls: DiscoveredUrl[];
  /** Child sitemaps (sitemap index). */
  sitemaps: DiscoveredUrl[];
  errors: DiscoveryError[];
}

export interface ParseSitemapOptions {
  /** The document's own URL (after redirects): base for relative `loc`s and the errors' `url`. */
  url: string;
  /** Stop after this many entries. */
  maxEntries: number;
  /** Cap on the decompressed size, in bytes. */
  maxBytes: number;
  /** The body was already cut at a byte limit: the broken end is expected, not "malformed". */
  truncated?: boolean;
}

function toIsoDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** Sitemaps must be UTF-8, but some declare another charset or carry a UTF-16 byte order mark. */
export function decodeDocument(body: Buffer): string {
  if (body[0] === 0xff && body[1] === 0xfe) return iconv.decode(body, 'utf-16le');
  if (body[0] === 0xfe && body[1] === 0xff) return iconv.decode(body, 'utf-16be');
  const head = body.subarray(0, 256).toString('latin1');
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  if (declared !== undefined && !/^(utf-?8|us-ascii|ascii)$/.test(declared) && iconv.encodingExists(declared)) {
    return iconv.decode(body, declared);
  }
  const text = body.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function resolveEntries(entries: RawEntry[], base: string): DiscoveredUrl[] {
  const out: DiscoveredUrl[] = [];
  const dates = new Map<string, string | undefined>();
  for (const entry of entries) {
    // Resolving against a base costs a second URL parse; sitemap locs are nearly always absolute.
    const url = /^https?:\/\//i.test(entry.loc) ? normalizeUrl(entry.loc) : normalizeUrl(entry.loc, { base });
    if (url === null) continue;
    let lastmod: string | undefined;
    if (entry.lastmod !== undefined) {
      // Sitemaps repeat a handful of dates thousands of times; Date parsing is the costly part.
      lastmod = dates.has(entry.lastmod) ? dates.get(entry.lastmod) : toIsoDate(entry.lastmod);
      if (dates.size < 10_000) dates.set(entry.lastmod, lastmod);
    }
    out.push(lastmod === undefined ? { url } : { url, lastmod });
  }
  return out;
}

function parseText(text: string, options: ParseSitemapOptions): ParsedSitemap {
  const urls: DiscoveredUrl[] = [];
  let nonEmpty = 0;
  const lines = text.split(/\r\n|\r|\n/);
  // The last line of a cut document may be a cut URL: a wrong URL is worse than a missing one.
  if (options.truncated === true) lines.pop();
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    nonEmpty++;
    // Plain-text sitemaps hold absolute URLs only; anything else on a line is not a URL.
    const url = /^https?:\/\//i.test(trimmed) ? normalizeUrl(trimmed) : null;
    if (url !== null) urls.push({ url });
    if (urls.length >= options.maxEntries) break;
  }
  const errors: DiscoveryError[] =
    urls.length === 0 && nonEmpty > 0
      ? [{ url: options.url, code: 'not_a_sitemap', message: 'text document without any http(s) URL line' }]
      : [];
  return { kind: 'text', urls, sitemaps: [], errors };
}

function parseXml(text: string, options: ParseSitemapOptions): ParsedSitemap {
  const result = readXmlSitemap(text, options.maxEntries);
  const errors: DiscoveryError[] = [];
  if (result.kind === 'unknown') {
    errors.push({
      url: options.url,
      code: 'not_a_sitemap',
      message: 'XML root is not urlset, sitemapindex, rss or feed',
    });
  } else if (result.error !== null && options.truncated !== true) {
    errors.push({ url: options.url, code: 'malformed', message: `malformed XML: ${result.error}` });
  }
  const entries = resolveEntries(result.entries, options.url);
  return result.kind === 'sitemapindex'
    ? { kind: result.kind, urls: [], sitemaps: entries, errors }
    : { kind: result.kind, urls: entries, sitemaps: [], errors };
}

/**
 * Parses one sitemap document: gzip (by magic bytes) is inflated within `maxBytes`, then XML
 * (urlset, sitemap index, RSS, Atom) or plain text (one URL per line) is read. Never throws:
 * problems come back in `errors` next to everything that could be read.
 *
 * @example
 * const parsed = await parseSitemapDocument(body, { url: 'https://a.example/sitemap.xml.gz', maxEntries: 50_000, maxBytes: 20 << 20 });
 * for (const { url } of parsed.urls) console.log(url);
 */
export async function parseSitemapDocument(body: Buffer, options: ParseSitemapOptions): Promise<ParsedSitemap> {
  const errors: DiscoveryError[] = [];
  let bytes = body;
  let truncated = options.truncated === true;
  if (isGzip(body)) {
    const inflated = await gunzipBounded(body, options.maxBytes);
    bytes = inflated.data;
    if (inflated.truncated) {
      truncated = true;
      errors.push({
        url: options.url,
        code: 'too_large',
        message: `decompressed sitemap exceeds ${options.maxBytes} bytes; only the first ${options.maxBytes} were read`,
      });
    }
    // A gzip stream cut by the download limit ends abruptly; that is not a second problem.
    if (inflated.error !== undefined && !truncated) {
      errors.push({ url: options.url, code: 'decompress_failed', message: `gzip: ${inflated.error}` });
      truncated = true;
    }
  } else if (body.length > options.maxBytes) {
    bytes = body.subarray(0, options.maxBytes);
    truncated = true;
  }
  const text = decodeDocument(bytes);
  const parsed = /^\s*</.test(text)
    ? parseXml(text, { ...options, truncated })
    : parseText(text, { ...options, truncated });
  return { ...parsed, errors: [...errors, ...parsed.errors] };
}
