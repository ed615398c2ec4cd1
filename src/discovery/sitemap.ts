import { errors as appErrors } from '../errors.js';
import { createUrlDeduper, dedupeKey, normalizeUrl } from '../url/normalize.js';
import { fetchRobotsTxt } from './robots.js';
import { parseSitemapDocument, type ParsedSitemap } from './sitemap-document.js';
import type { DiscoveredUrl, DiscoveryError, DiscoveryFetcher } from './types.js';

export { parseSitemapDocument, type ParsedSitemap } from './sitemap-document.js';

/** Defaults, chosen so one map stays within a few tens of MB and well under a minute. */
export const SITEMAP_DEFAULTS = {
  maxUrls: 100_000,
  /** Per document, on the wire and after gzip. The protocol allows 50 MB; few real files exceed 10. */
  maxBytes: 20 * 1024 * 1024,
  /** Index nesting below the first documents (robots.txt lines and the well-known paths). */
  maxDepth: 5,
  maxSitemaps: 1_000,
  concurrency: 4,
} as const;

export interface CollectSitemapOptions {
  fetch: DiscoveryFetcher;
  maxUrls?: number;
  maxBytes?: number;
  maxDepth?: number;
  /** Documents fetched at most (indexes can list 50,000 children). */
  maxSitemaps?: number;
  concurrency?: number;
  signal?: AbortSignal;
  /** Epoch ms: no fetch starts after it and fetches in flight are aborted at it. */
  deadline?: number;
  /** `Sitemap:` lines the caller already has; when absent robots.txt is fetched for them. */
  robotsSitemaps?: readonly string[];
  /** Product token for the robots.txt fetch (only its sitemap lines are used here). */
  userAgent?: string;
  /** Keep only page URLs passing this (site scope, globs) before they count against `maxUrls`. */
  filter?: (url: string) => boolean;
  /** Streaming: each document's new URLs, in document order, as soon as it is read. */
  onUrls?: (urls: readonly DiscoveredUrl[]) => void;
}

export interface SitemapCollection {
  /** Deduplicated (see `dedupeKey`), normalised, first-seen order. */
  urls: DiscoveredUrl[];
  count: number;
  /** Sitemap documents that were read, in the order they were read. */
  sitemaps: string[];
  errors: DiscoveryError[];
  /** Set when a limit or the caller ended collection before every source was read. */
  stoppedBy?: 'max_urls' | 'deadline' | 'aborted';
}

interface Source {
  url: string;
  depth: number;
  /** A well-known location we guessed: a 404 or an HTML page there is not worth reporting. */
  guessed: boolean;
}

type Limits = Required<
  Pick<CollectSitemapOptions, 'maxUrls' | 'maxBytes' | 'maxDepth' | 'maxSitemaps' | 'concurrency'>
>;

/** Well-known locations, plus `<dir>/sitemap.xml` for each directory above a deep start URL. */
function guessedLocations(startUrl: URL): string[] {
  const out = [`${startUrl.origin}/sitemap.xml`, `${startUrl.origin}/sitemap_index.xml`];
  const dirs = startUrl.pathname
    .split('/')
    .slice(1, -1)
    .filter((d) => d !== '');
  for (let depth = Math.min(dirs.length, 3); depth > 0; depth--) {
    out.push(`${startUrl.origin}/${dirs.slice(0, depth).join('/')}/sitemap.xml`);
  }
  return out;
}

async function startSources(start: URL, options: CollectSitemapOptions, signal: AbortSignal): Promise<Source[]> {
  let listed = options.robotsSitemaps;
  if (listed === undefined) {
    const robots = await fetchRobotsTxt(start.href, {
      fetch: options.fetch,
      userAgent: options.userAgent ?? '*',
      signal,
      attempts: 1,
    });
    listed = robots.policy.sitemaps;
  }
  return [
    ...listed.map((url) => ({ url, depth: 0, guessed: false })),
    ...guessedLocations(start).map((url) => ({ url, depth: 0, guessed: true })),
  ];
}

function deadlineSignal(options: CollectSitemapOptions): AbortSignal {
  const signals: AbortSignal[] = [];
  if (options.signal !== undefined) signals.push(options.signal);
  if (options.deadline !== undefined) signals.push(AbortSignal.timeout(Math.max(0, options.deadline - Date.now())));
  return signals.length === 0 ? new AbortController().signal : AbortSignal.any(signals);
}

async function readSource(
  source: Source,
  options: CollectSitemapOptions,
  limits: Limits,
  signal: AbortSignal,
): Promise<ParsedSitemap> {
  const fail = (code: DiscoveryError['code'], message: string): ParsedSitemap => ({
    kind: 'unknown',
    urls: [],
    sitemaps: [],
    errors: [{ url: source.url, code, message }],
  });
  let res;
  try {
    // One byte past the limit tells "exactly at the limit" from "cut at the limit".
    res = await options.fetch(source.url, { maxBytes: limits.maxBytes + 1, signal });
  } catch (err) {
    if (signal.aborted) return fail('deadline', 'stopped by the deadline or the caller before an answer came');
    return fail('fetch_failed', err instanceof Error ? err.message : String(err));
  }
  if (res.status < 200 || res.status >= 300) {
    const absent = source.guessed && (res.status === 404 || res.status === 410);
    return absent ? { kind: 'unknown', urls: [], sitemaps: [], errors: [] } : fail('http_status', `HTTP ${res.status}`);
  }
  const truncated = res.body.length > limits.maxBytes;
  const parsed = await parseSitemapDocument(res.body, {
    url: res.finalUrl || source.url,
    maxEntries: Math.max(limits.maxUrls, limits.maxSitemaps),
    maxBytes: limits.maxBytes,
    truncated,
  });
  if (truncated) {
    const message = `sitemap exceeds ${limits.maxBytes} bytes; only the first ${limits.maxBytes} were read`;
    parsed.errors.unshift({ url: source.url, code: 'too_large', message });
  }
  return parsed;
}

class Collector {
  readonly result: SitemapCollection = { urls: [], count: 0, sitemaps: [], errors: [] };
  private readonly pages = createUrlDeduper();
  private readonly documents = new Set<string>();
  private readonly queue: Source[] = [];
  private scheduled = 0;

  constructor(
    private readonly options: CollectSitemapOptions,
    private readonly limits: Limits,
  ) {}

  /** Queues a sitemap unless already seen (cycles), too deep, or over the document budget. */
  enqueue(source: Source): void {
    const key = dedupeKey(source.url);
    if (key === null || this.documents.has(key)) return;
    this.documents.add(key);
    if (source.depth > this.limits.maxDepth) {
      this.error(source.url, 'max_depth', `sitemap nested deeper than ${this.limits.maxDepth} levels; not read`);
    } else if (this.scheduled >= this.limits.maxSitemaps) {
      if (this.scheduled++ === this.limits.maxSitemaps) {
        this.error(
          source.url,
          'max_sitemaps',
          `more than ${this.limits.maxSitemaps} sitemap documents; the rest were not read`,
        );
      }
    } else {
      this.scheduled++;
      this.queue.push(source);
    }
  }

  next(): Source[] {
    return this.queue.splice(0, this.limits.concurrency);
  }

  get full(): boolean {
    return this.result.count >= this.limits.maxUrls;
  }

  absorb(source: Source, parsed: ParsedSitemap): void {
    // A guessed location answering with an HTML page (a soft 404) is no news.
    for (const e of parsed.errors) if (!(source.guessed && e.code === 'not_a_sitemap')) this.result.errors.push(e);
    if (parsed.kind !== 'unknown') this.result.sitemaps.push(source.url);
    for (const child of parsed.sitemaps) this.enqueue({ url: child.url, depth: source.depth + 1, guessed: false });
    const fresh: DiscoveredUrl[] = [];
    for (const entry of parsed.urls) {
      if (this.full) break;
      if (this.options.filter !== undefined && !this.options.filter(entry.url)) continue;
      const url = this.pages.add(entry.url);
      if (url === null) continue;
      fresh.push(entry);
      this.result.urls.push(entry);
      this.result.count++;
    }
    if (fresh.length > 0) this.options.onUrls?.(fresh);
  }

  error(url: string, code: DiscoveryError['code'], message: string): void {
    this.result.errors.push({ url, code, message });
  }
}

/**
 * Collects page URLs from every sitemap source of a site: robots.txt `Sitemap:` lines, then
 * `/sitemap.xml`, `/sitemap_index.xml` (and `<dir>/sitemap.xml` for a start URL below the
 * root), following indexes breadth-first. Documents are read `concurrency` at a time and merged
 * in queue order, so the output order is deterministic. Never throws for what a site does;
 * throws a validation error only for a start URL that is not http(s).
 *
 * @example
 * const { urls, errors } = await collectSitemapUrls('https://a.example/', { fetch, maxUrls: 10_000, deadline: Date.now() + 30_000 });
 */
export async function collectSitemapUrls(startUrl: string, options: CollectSitemapOptions): Promise<SitemapCollection> {
  const normalized = normalizeUrl(startUrl);
  if (normalized === null)
    throw appErrors.validation(`start URL must be an absolute http(s) URL: ${JSON.stringify(startUrl)}`);
  const limits: Limits = { ...SITEMAP_DEFAULTS, ...definedLimits(options) };
  const signal = deadlineSignal(options);
  const collector = new Collector(options, limits);
  try {
    for (const source of await startSources(new URL(normalized), options, signal)) collector.enqueue(source);
  } catch {
    // Only an abort gets here (robots.txt trouble is absorbed by fetchRobotsTxt); handled below.
  }
  for (let batch = collector.next(); batch.length > 0 && !collector.full && !signal.aborted; batch = collector.next()) {
    const parsed = await Promise.all(batch.map((source) => readSource(source, options, limits, signal)));
    batch.forEach((source, i) => collector.absorb(source, parsed[i] as ParsedSitemap));
  }
  const result = collector.result;
  if (collector.full) result.stoppedBy = 'max_urls';
  else if (signal.aborted) result.stoppedBy = options.signal?.aborted === true ? 'aborted' : 'deadline';
  return result;
}

function definedLimits(options: CollectSitemapOptions): Partial<Limits> {
  const out: Partial<Limits> = {};
  for (const key of ['maxUrls', 'maxBytes', 'maxDepth', 'maxSitemaps', 'concurrency'] as const) {
    const value = options[key];
    if (value !== undefined) out[key] = Math.max(key === 'maxDepth' ? 0 : 1, Math.floor(value));
  }
  return out;
}
