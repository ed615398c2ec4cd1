import type { AppError } from '../../errors.js';
import type { UrlFilter } from '../../url/glob.js';
import { dedupeKey, sameSite } from '../../url/normalize.js';
import type { RankItem } from '../../url/rank.js';
import type { EngineFetchers } from './engine-fetchers.js';
import { discoverLinks, mayBeHtml, type LinkDiscoveryResult } from './link-discovery.js';
import type { MapStats } from './map.entity.js';
import { MAP_URL_MAX_LENGTH } from './map.schema.js';
import { discoveryNotes } from './map-warnings.js';
import { createRobotsCache, type RobotsCache } from './robots-cache.js';
import { SitemapHosts, type HostCollection } from './sitemap-hosts.js';

export interface SiteDiscoveryOptions {
  /** Normalised start URL. */
  startUrl: string;
  fetchers: EngineFetchers;
  includeSubdomain: boolean;
  /** include_urls / exclude_urls. */
  filter: UrlFilter;
  maxUrls: number;
  maxPages: number;
  /** Epoch ms: discovery starts nothing after it. */
  deadline: number;
  signal: AbortSignal;
  /** Product token robots.txt groups are matched against. */
  robotsUserAgent: string;
  /** Pages link discovery reads at once. */
  concurrency?: number;
}

export interface SiteDiscovery {
  /** Normalised, deduplicated, in scope, filtered, at most `maxUrls`: sitemap order, then link order. */
  items: RankItem[];
  stats: Omit<MapStats, 'durationMs'>;
  /** Things the client should know (incomplete sources, limits reached); empty when all went well. */
  notes: string[];
  /** The start page's failure, when it could not be fetched at all. */
  startError: AppError | null;
}

/**
 * Everything a map lists: every sitemap source of the site (and of subdomains found on the
 * way, with include_subdomain) and link discovery from the start page outward, run side by side
 * within one deadline, then merged. See docs/maps.md.
 *
 * Scope: URLs on the start URL's site (`sameSite`; with include_subdomain its whole registrable
 * domain). Globs decide what is listed; exclusion also stops link discovery from reading a page,
 * while pages outside the include patterns are still read for their links (the home page is
 * rarely under `/blog/**`, but it links to the blog).
 */
export async function discoverSite(options: SiteDiscoveryOptions): Promise<SiteDiscovery> {
  const scope = createScope(options.startUrl, options.includeSubdomain);
  const inScope = scope.test;
  const { filter } = options;
  const listed = (url: string) =>
    url.length <= MAP_URL_MAX_LENGTH && inScope(url) && (filter.acceptsAll || filter.test(url));
  const robots = createRobotsCache({
    fetch: options.fetchers.discovery,
    userAgent: options.robotsUserAgent,
    signal: options.signal,
  });
  const hosts = new SitemapHosts({
    fetch: options.fetchers.discovery,
    robots,
    accept: listed,
    wantsHost: inScope,
    maxUrls: options.maxUrls,
    deadline: options.deadline,
    signal: options.signal,
  });
  hosts.consider(options.startUrl);
  const links = await discoverLinks({
    start: options.startUrl,
    fetchPage: options.fetchers.page,
    robots,
    inScope,
    visit: (url) => inScope(url) && mayBeHtml(url) && !excluded(options.filter, url),
    maxPages: options.maxPages,
    maxUrls: options.maxUrls,
    concurrency: options.concurrency ?? 4,
    deadline: options.deadline,
    signal: options.signal,
    onUrl: (url) => {
      if (options.includeSubdomain) hosts.consider(url);
    },
    onStartMoved: (finalUrl) => {
      scope.add(finalUrl);
      hosts.consider(finalUrl);
    },
  });
  const sitemaps = await hosts.settle();
  return merge(options, { sitemaps, links, robots, listed });
}

const AUTHORITY = /^https?:\/\/([^/?#]*)/i;

/**
 * The site scope as a predicate. `sameSite` parses both URLs; a map asks about 100,000 URLs
 * of a handful of hosts, so positive answers are remembered by authority (`user@host:port`).
 * Only positives: a URL that fails to parse must not condemn its host.
 */
function createScope(
  start: string,
  includeSubdomain: boolean,
): { test(url: string): boolean; add(root: string): void } {
  const roots = [start];
  const known = new Set<string>();
  return {
    test(url) {
      const authority = AUTHORITY.exec(url)?.[1];
      if (authority === undefined) return false;
      if (known.has(authority)) return true;
      const same = roots.some((root) => sameSite(url, root, { includeSubdomain }));
      if (same && known.size < 10_000) known.add(authority);
      return same;
    },
    add(root) {
      roots.push(root);
    },
  };
}

/** True when an exclude pattern matches: such pages are neither listed nor read. */
function excluded(filter: UrlFilter, url: string): boolean {
  return filter.explain(url).reason === 'excluded';
}

interface Sources {
  sitemaps: HostCollection[];
  links: LinkDiscoveryResult;
  robots: RobotsCache;
  listed: (url: string) => boolean;
}

function merge(options: SiteDiscoveryOptions, sources: Sources): SiteDiscovery {
  const { sitemaps, links, listed } = sources;
  // Every URL here is already normalised (sitemaps and page links both are): one parse for the key is enough.
  const seen = new Set<string>();
  const items: RankItem[] = [];
  let full = false;
  const add = (url: string, fromSitemap: boolean): boolean => {
    const key = dedupeKey(url);
    if (key === null || seen.has(key) || links.gone.has(key)) return false;
    // Sitemap URLs passed `listed` when collected (the scope only grows since).
    if (!fromSitemap && !listed(url)) return false;
    if (items.length >= options.maxUrls) return !(full = true);
    seen.add(key);
    const text = links.found.get(key)?.texts.join(' ');
    items.push(text === undefined || text === '' ? { url } : { url, text });
    return true;
  };
  let sitemapUrls = 0;
  for (const { collection } of sitemaps) {
    sitemapUrls += collection.count;
    for (const { url } of collection.urls) add(url, true);
  }
  let linkOnlyUrls = 0;
  for (const found of links.found.values()) if (add(found.url, false)) linkOnlyUrls++;
  const timedOut =
    links.stoppedBy === 'time_budget' || sitemaps.some(({ collection }) => collection.stoppedBy === 'deadline');
  const stoppedBy: MapStats['stoppedBy'] = full ? 'max_urls' : timedOut ? 'time_budget' : undefined;
  const stats: SiteDiscovery['stats'] = {
    sitemaps: sitemaps.reduce((n, { collection }) => n + collection.sitemaps.length, 0),
    sitemapUrls,
    pagesFetched: links.pagesFetched,
    linkOnlyUrls,
    hosts: sitemaps.length,
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
  };
  const notes = discoveryNotes({
    sitemaps,
    links,
    robots: sources.robots.results(),
    stoppedBy,
    maxUrls: options.maxUrls,
    found: items.length,
  });
  return { items, stats, notes, startError: links.startError };
}
