import type { UrlFilter } from '../url/glob.js';
import { collapseWhitespace } from './dom.js';
import { type RankableLink, rankLinks } from './link-ranking.js';

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
 * Every http(s) link of the page as served (`<a href>` and `<area href>`), navigation included:
 * links_on_page is for discovery, so it reads the page before cleanup and the transformer shape
 * the content formats. In-page anchors (`#section`) and `javascript:`/`mailto:`/`tel:` links are
 * left out; duplicates (same absolute URL) count once, at their first position, with all their
 * anchor texts feeding the ranking. Globs always match the absolute URL, even when the links are
 * returned as written.
 */
export function collectLinks(document: Document, baseUrl: URL, options: PreparedLinksOptions): string[] {
  const byUrl = new Map<string, Candidate>();
  const kept: Candidate[] = [];
  for (const anchor of document.querySelectorAll('a[href], area[href]')) {
    const written = (anchor.getAttribute('href') ?? '').trim();
    if (!written || written.startsWith('#')) continue;
    const url = absoluteHttpUrl(written, baseUrl);
    if (!url) continue;
    const text = options.query === null ? '' : anchorText(anchor);
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

function absoluteHttpUrl(href: string, base: URL): URL | null {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function anchorText(anchor: Element): string {
  const text = collapseWhitespace(anchor.textContent ?? '');
  if (text) return text;
  const label = anchor.getAttribute('aria-label') ?? anchor.getAttribute('title') ?? anchor.getAttribute('alt');
  if (label) return collapseWhitespace(label);
  return collapseWhitespace(anchor.querySelector('img[alt]')?.getAttribute('alt') ?? '');
}
