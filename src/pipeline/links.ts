import type { UrlFilter } from '../url/glob.js';
import { type RankableLink, rankLinks } from './link-ranking.js';
import { anchorText, pageAnchors } from './page-links.js';
import type { PageDocument } from './page-node.js';

/** `links_on_page` once validated: globs compiled, defaults applied. */
export interface PreparedLinksOptions {
  absolute: boolean;
  filter: UrlFilter;
  /** Null = page order. */
  query: string | null;
}

interface Candidate extends RankableLink {
  written: string;
}

/**
 * `links_on_page`: every http(s) link of the page as served (the shared walk, `pageAnchors`),
 * navigation included: it is for discovery, so it reads the page before cleanup and the
 * transformer shape the content formats. Duplicates (same absolute URL) count once, at their
 * first position, with all their anchor texts feeding the ranking. Globs always match the
 * absolute URL, even when the links are returned as written.
 */
export function collectLinks(document: PageDocument, baseUrl: URL, options: PreparedLinksOptions): string[] {
  const byUrl = new Map<string, Candidate>();
  const kept: Candidate[] = [];
  for (const { written, url, element } of pageAnchors(document, baseUrl)) {
    const text = options.query === null ? '' : anchorText(element);
    const existing = byUrl.get(url.href);
    if (existing) {
      if (text) existing.text += ` ${text}`;
      continue;
    }
    const candidate: Candidate = { url, text, written };
    byUrl.set(url.href, candidate);
    if (options.filter.acceptsAll || options.filter.test(url)) kept.push(candidate);
  }
  const ordered = options.query === null ? kept : rankLinks(kept, options.query);
  return ordered.map((link) => (options.absolute ? link.url.href : link.written));
}
