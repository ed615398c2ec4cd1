import { collectSitemapUrls, type SitemapCollection } from '../../discovery/sitemap.js';
import type { DiscoveredUrl, DiscoveryFetcher } from '../../discovery/types.js';
import { siteHost } from '../../url/normalize.js';
import type { RobotsCache } from './robots-cache.js';

/** Hosts besides the start host whose sitemaps one map reads at most. */
export const MAX_EXTRA_SITEMAP_HOSTS = 10;

export interface SitemapHostsOptions {
  fetch: DiscoveryFetcher;
  robots: RobotsCache;
  /** Keeps only URLs that belong to the map (scope and globs); consulted before a URL counts. */
  accept: (url: string) => boolean;
  /** Whether the sitemaps of this URL's host should be read (scope decides). */
  wantsHost: (url: string) => boolean;
  maxUrls: number;
  deadline: number;
  signal: AbortSignal;
}

export interface HostCollection {
  host: string;
  collection: SitemapCollection;
}

/**
 * Sitemap collection for every host of a map: the start host first, then each new host that
 * link discovery or another sitemap reveals (subdomains with include_subdomain, the new home of
 * a start page that redirected), at most {@link MAX_EXTRA_SITEMAP_HOSTS} more, all sharing the
 * map's deadline and URL budget. Each host's robots.txt comes from the shared cache, so its
 * `Sitemap:` lines cost no second fetch.
 */
export class SitemapHosts {
  private readonly hosts = new Map<string, Promise<HostCollection>>();
  private accepted = 0;

  constructor(private readonly options: SitemapHostsOptions) {}

  /** Starts reading the sitemaps of `url`'s host unless already done, out of scope, or over budget. */
  consider(url: string): void {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return;
    }
    const key = `${siteHost(parsed.hostname)}:${parsed.port}`;
    if (this.hosts.has(key) || this.hosts.size > MAX_EXTRA_SITEMAP_HOSTS) return;
    if (Date.now() >= this.options.deadline || !this.options.wantsHost(url)) return;
    // The start URL itself (with its path) for the first host: deep start URLs add <dir>/sitemap.xml guesses.
    const start = this.hosts.size === 0 ? url : `${parsed.origin}/`;
    const pending = this.collect(key, start);
    // Awaited by settle(); until then a failure must not become an unhandled rejection.
    pending.catch(() => undefined);
    this.hosts.set(key, pending);
  }

  /** Every collection started, in the order hosts were found; waits for those still running. */
  async settle(): Promise<HostCollection[]> {
    const done: HostCollection[] = [];
    // Collections started while waiting (a sitemap revealing a subdomain) are awaited too.
    for (let i = 0; i < this.hosts.size; i++) done.push(await [...this.hosts.values()][i]!);
    return done;
  }

  private async collect(host: string, start: string): Promise<HostCollection> {
    const { options } = this;
    const empty: SitemapCollection = { urls: [], count: 0, sitemaps: [], errors: [] };
    let robotsSitemaps: readonly string[];
    try {
      robotsSitemaps = (await options.robots.get(start)).policy.sitemaps;
    } catch {
      return { host, collection: { ...empty, stoppedBy: 'aborted' } };
    }
    const collection = await collectSitemapUrls(start, {
      fetch: options.fetch,
      maxUrls: options.maxUrls,
      deadline: options.deadline,
      signal: options.signal,
      robotsSitemaps,
      filter: (url) => this.accepted < options.maxUrls && options.accept(url),
      onUrls: (urls) => this.absorb(urls),
    });
    return { host, collection };
  }

  private absorb(urls: readonly DiscoveredUrl[]): void {
    this.accepted += urls.length;
    let lastHost = '';
    for (const { url } of urls) {
      // Sitemaps list thousands of URLs of one host in a row: look at each host change only.
      const host = /^https?:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
      if (host === lastHost) continue;
      lastHost = host;
      this.consider(url);
    }
  }
}
