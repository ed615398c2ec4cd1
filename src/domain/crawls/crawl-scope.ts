import { newId } from '../../ids.js';
import type { UrlFilter } from '../../url/glob.js';
import { dedupeKey, sameSite } from '../../url/normalize.js';
import { rankByQuery } from '../../url/rank.js';
import type { PageLink } from '../../pipeline/page-links.js';
import type { NewFrontierRow } from './crawl-records.js';

/** What a page's links add to the frontier. */
export interface LinkPlan {
  rows: NewFrontierRow[];
  /** Dedupe keys whose fate this plan settles (followed, listed, or never to be fetched). */
  decided: string[];
}

export interface CrawlScopeSpec {
  /** The site the crawl keeps to (its host; with subdomains, its registrable domain). */
  scopeUrl: string;
  includeSubdomain: boolean;
  includeExternal: boolean;
  maxDepth: number | null;
  /** include_urls / exclude_urls. */
  filter: UrlFilter;
  searchQuery: string | null;
  topN: number | null;
}

/** URLs whose path names a file that is not a document (PDFs and text are documents). */
const NOT_A_DOCUMENT =
  /\.(?:zip|gz|tgz|bz2|xz|7z|rar|tar|png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|mov|avi|mkv|webm|ogg|wav|flac|woff2?|ttf|otf|eot|css|js|mjs|exe|dmg|apk|iso|bin|deb|rpm|msi)$/i;

/**
 * Which links of a page the crawl follows. One decision per URL:
 * - on the site (the start host; with include_subdomain, any host of its registrable domain):
 *   followed when within max_depth and kept by the filters;
 * - elsewhere: listed in `external_urls`; with include_external also fetched (first degree only:
 *   an external page's own links are not followed), within max_depth and the filters;
 * - files that are not documents (images, archives, scripts, styles, fonts) are never fetched.
 * With search_query the followed links of each page are ordered by relevance (BM25 over URL and
 * anchor text), and with top_n only the n most relevant are followed.
 * `seen` holds the dedupe keys this runner has already decided; the database's unique key keeps
 * the decision single across runners.
 */
export class CrawlScope {
  private scopeUrl: string;

  constructor(
    private readonly spec: CrawlScopeSpec,
    private readonly seen: Set<string> = new Set(),
  ) {
    this.scopeUrl = spec.scopeUrl;
  }

  get site(): string {
    return this.scopeUrl;
  }

  /** The start page redirected to another site: that site is the crawl's from now on. */
  moveTo(url: string): void {
    this.scopeUrl = url;
  }

  inSite(url: string): boolean {
    return sameSite(url, this.scopeUrl, { includeSubdomain: this.spec.includeSubdomain });
  }

  /**
   * The frontier rows the links of a page at `depth` add, in the order they are to be fetched,
   * and the dedupe keys decided. Pure: call `rememberKeys(plan.decided)` once the page is recorded
   * (a page that turns out to be a duplicate adds nothing, and decides nothing).
   */
  plan(links: readonly PageLink[], depth: number): LinkPlan {
    const next = depth + 1;
    const withinDepth = this.spec.maxDepth === null || next <= this.spec.maxDepth;
    const follow: (PageLink & { key: string; external: boolean })[] = [];
    const listed: NewFrontierRow[] = [];
    const decided: string[] = [];
    const planned = new Set<string>();
    for (const link of links) {
      const key = dedupeKey(link.url);
      if (key === null || this.seen.has(key) || planned.has(key)) continue;
      planned.add(key);
      const external = !this.inSite(link.url);
      const fetchable = withinDepth && !NOT_A_DOCUMENT.test(pathOf(link.url)) && this.spec.filter.test(link.url);
      if (fetchable && (!external || this.spec.includeExternal)) {
        follow.push({ ...link, key, external });
      } else {
        // The same answer next time: listed as external, or out of depth, a file, filtered out.
        decided.push(key);
        if (external) listed.push(row(key, link.url, next, true, 'external'));
      }
    }
    const kept = this.rank(follow);
    decided.push(...kept.map((l) => l.key));
    return { rows: [...kept.map((l) => row(l.key, l.url, next, l.external, 'queued')), ...listed], decided };
  }

  /** Marks a URL decided (the start URL). */
  rememberUrl(url: string): void {
    const key = dedupeKey(url);
    if (key !== null) this.seen.add(key);
  }

  /** Marks dedupe keys decided (a recorded page's planned links, its redirect target). */
  rememberKeys(keys: readonly string[]): void {
    for (const key of keys) this.seen.add(key);
  }

  private rank<T extends PageLink>(links: T[]): T[] {
    const query = this.spec.searchQuery?.trim();
    if (!query) return links;
    const items = links.map((l) => ({ url: l.url, text: l.text, link: l }));
    return rankByQuery(items, query, this.spec.topN ?? undefined).map((r) => r.item.link);
  }
}

function row(
  key: string,
  url: string,
  depth: number,
  isExternal: boolean,
  status: NewFrontierRow['status'],
): NewFrontierRow {
  return { id: newId('page'), key, url, depth, isExternal, status };
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}
