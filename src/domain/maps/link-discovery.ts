import { setTimeout as sleep } from 'node:timers/promises';
import type { PageSnapshot } from '../../engine/types.js';
import { AppError, errors } from '../../errors.js';
import { dedupeKey, normalizeUrl } from '../../url/normalize.js';
import type { PageFetcher } from './engine-fetchers.js';
import { readPageLinks } from '../../pipeline/page-links.js';
import type { RobotsCache } from './robots-cache.js';

/** A URL link discovery found, with the words known for it (anchor texts, its title). */
export interface FoundUrl {
  url: string;
  texts: string[];
}

export interface LinkDiscoveryOptions {
  /** Normalised start URL: the first page read. */
  start: string;
  fetchPage: PageFetcher;
  robots: RobotsCache;
  /** Whether a URL belongs to the map (site scope); only those are recorded. */
  inScope: (url: string) => boolean;
  /** Whether an in-scope page may be read for its links (not excluded, not a file type). */
  visit: (url: string) => boolean;
  maxPages: number;
  /** Stop recording once this many URLs are known. */
  maxUrls: number;
  /** Pages fetched at once. */
  concurrency: number;
  /** Epoch ms: no fetch starts after it. */
  deadline: number;
  signal: AbortSignal;
  /** Each newly recorded URL (the orchestrator reads subdomain sitemaps from it). */
  onUrl?: (url: string) => void;
  /**
   * The start page redirected out of scope (`example.com` → `example.org`, or to a subdomain
   * without include_subdomain): the orchestrator widens the scope to the page's new home.
   */
  onStartMoved?: (finalUrl: string) => void;
}

export interface LinkDiscoveryResult {
  /** By dedupe key, in the order found (breadth-first, page order within a page). */
  found: Map<string, FoundUrl>;
  /** Dedupe keys of URLs that are not pages: 404/410, or redirects (their target is recorded instead). */
  gone: Set<string>;
  pagesFetched: number;
  /** Pages robots.txt did not let us read. */
  robotsBlocked: number;
  /** The start page's failure when it could not be fetched at all. */
  startError: AppError | null;
  /** First few fetch failures, for the map's warning. */
  failures: string[];
  stoppedBy?: 'max_pages' | 'time_budget' | 'aborted';
}

/** File types not worth downloading to look for links (they are still listed). */
const NOT_HTML =
  /\.(?:pdf|zip|gz|tgz|bz2|xz|7z|rar|tar|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|mov|avi|mkv|webm|ogg|wav|flac|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|txt|csv|xlsx?|docx?|pptx?|exe|dmg|apk|iso|bin)$/i;

/** False for URLs whose path names a file type other than a page. */
export function mayBeHtml(url: string): boolean {
  try {
    return !NOT_HTML.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

const MAX_FAILURES = 3;
const MAX_TEXTS = 4;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Breadth-first link discovery from the start page within a page and time budget. Pages are
 * read in waves of `concurrency` and merged in queue order, so what is found (and its order)
 * does not depend on which response came first. robots.txt is honoured for reading pages
 * (disallowed pages may still be listed when linked), and so is `Crawl-delay`, per origin.
 */
export async function discoverLinks(options: LinkDiscoveryOptions): Promise<LinkDiscoveryResult> {
  const run = new LinkRun(options);
  await run.execute();
  return run.result;
}

class LinkRun {
  readonly result: LinkDiscoveryResult = {
    found: new Map(),
    gone: new Set(),
    pagesFetched: 0,
    robotsBlocked: 0,
    startError: null,
    failures: [],
  };
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();

  constructor(private readonly options: LinkDiscoveryOptions) {}

  async execute(): Promise<void> {
    const { options } = this;
    // The start page is read even when a glob excludes it: its links are what discovery needs.
    this.enqueue(options.start, true);
    await this.crawl();
    // Not read (budget, robots.txt) or not HTML: still the site's page, unless it failed or is gone.
    const startKey = dedupeKey(options.start);
    if (this.result.startError === null && startKey !== null && !this.result.gone.has(startKey)) {
      this.record(options.start, []);
    }
  }

  private async crawl(): Promise<void> {
    const { options } = this;
    while (this.queue.length > 0) {
      if (options.signal.aborted) return this.stop(Date.now() >= options.deadline ? 'time_budget' : 'aborted');
      if (Date.now() >= options.deadline) return this.stop('time_budget');
      const room = options.maxPages - this.result.pagesFetched;
      if (room <= 0) return this.stop('max_pages');
      const wave = this.queue.splice(0, Math.min(options.concurrency, room));
      const pages = await Promise.all(wave.map((url) => this.read(url)));
      wave.forEach((url, i) => this.absorb(url, pages[i] ?? null));
    }
  }

  private stop(reason: NonNullable<LinkDiscoveryResult['stoppedBy']>): void {
    this.result.stoppedBy = reason;
  }

  private enqueue(url: string, always = false): void {
    const key = dedupeKey(url);
    if (key === null || this.queued.has(key) || !(always || this.options.visit(url))) return;
    this.queued.add(key);
    this.queue.push(url);
  }

  private record(url: string, texts: string[]): void {
    const key = dedupeKey(url);
    if (key === null) return;
    const seen = this.result.found.get(key);
    if (seen !== undefined) {
      // A few texts are enough to rank by; a link in every page's footer would collect hundreds.
      const fresh = texts.filter((text) => text !== '' && !seen.texts.includes(text));
      seen.texts.push(...fresh.slice(0, Math.max(0, MAX_TEXTS - seen.texts.length)));
      return;
    }
    if (this.result.found.size >= this.options.maxUrls) return;
    this.result.found.set(key, { url, texts: texts.filter((t) => t !== '') });
    this.options.onUrl?.(url);
  }

  /** Fetches one page when robots.txt and the time budget allow; null when it was not read. */
  private async read(url: string): Promise<PageSnapshot | null> {
    const { options } = this;
    try {
      const robots = await options.robots.get(url);
      if (url === options.start && robots.source === 'unreachable' && robots.status === null) {
        // No answer at all from the start origin: the site is down, not shy.
        this.result.startError = errors.upstream(`${new URL(url).host} could not be reached (${robots.error})`);
        return null;
      }
      if (!robots.policy.isAllowed(url)) {
        this.result.robotsBlocked++;
        return null;
      }
      const slot = options.robots.reserve(url, robots);
      if (slot >= options.deadline) {
        this.stop('time_budget');
        return null;
      }
      if (slot > Date.now()) await sleep(slot - Date.now(), undefined, { signal: options.signal });
      this.result.pagesFetched++;
      return await options.fetchPage(url, options.signal);
    } catch (err) {
      if (options.signal.aborted) {
        this.stop(Date.now() >= options.deadline ? 'time_budget' : 'aborted');
        return null;
      }
      if (url === options.start && err instanceof AppError) this.result.startError = err;
      if (this.result.failures.length < MAX_FAILURES) {
        this.result.failures.push(`${url}: ${err instanceof Error ? err.message : String(err)}`);
      }
      return null;
    }
  }

  private absorb(url: string, page: PageSnapshot | null): void {
    if (page === null) return;
    const requestedKey = dedupeKey(url);
    if (page.statusCode === 404 || page.statusCode === 410) {
      if (requestedKey !== null) this.result.gone.add(requestedKey);
      return;
    }
    const finalUrl = normalizeUrl(page.finalUrl) ?? page.finalUrl;
    const finalKey = dedupeKey(finalUrl);
    if (finalKey !== requestedKey) {
      // A redirect: the target is the page; the redirecting URL is not listed.
      if (requestedKey !== null) this.result.gone.add(requestedKey);
      if (url === this.options.start && !this.options.inScope(finalUrl)) this.options.onStartMoved?.(finalUrl);
      if (!this.options.inScope(finalUrl)) return;
      if (finalKey !== null) this.queued.add(finalKey);
    }
    if (page.statusCode < 200 || page.statusCode >= 300) return;
    if (page.text === undefined || !HTML_TYPES.has(page.contentType)) {
      this.record(finalUrl, []);
      return;
    }
    const { title, links } = readPageLinks(page.text, page.finalUrl);
    this.record(finalUrl, title === '' ? [] : [title]);
    for (const link of links) {
      if (!this.options.inScope(link.url)) continue;
      this.record(link.url, [link.text]);
      this.enqueue(link.url);
    }
  }
}
