import { normalizeUrl } from '../url/normalize.js';
import { collapseWhitespace, parseLeanPage } from './dom.js';
import type { PageDocument, PageElement } from './page-node.js';

/** A link of a page: the normalised absolute URL and its anchor text (may be empty). */
export interface PageLink {
  url: string;
  text: string;
}

/** A page with more links than this is a generated listing or a trap; the rest are not read. */
export const MAX_LINKS_PER_PAGE = 5_000;
/** Longer URLs are not followed (the limit of a map's URL, a crawl's frontier row). */
export const MAX_LINK_URL_LENGTH = 8192;
const MAX_TEXT = 200;

/** One `<a href>` or `<area href>` of a page: as written, resolved, and its anchor text. */
export interface Anchor {
  written: string;
  /** Absolute http(s) URL (resolved against `<base href>` or the page URL). */
  url: URL;
  element: PageElement;
}

/**
 * The one walk over a page's links that scrapes (`links_on_page`), maps and crawls share:
 * every `<a href>` and `<area href>` in document order, navigation included, resolved against
 * the page's base URL; in-page anchors (`#section`) and non-http(s) links (`javascript:`,
 * `mailto:`, `tel:`) are left out.
 */
export function* pageAnchors(document: PageDocument, baseUrl: URL): Generator<Anchor> {
  for (const element of document.querySelectorAll('a[href], area[href]')) {
    const written = (element.getAttribute('href') ?? '').trim();
    if (!written || written.startsWith('#')) continue;
    const url = absoluteHttpUrl(written, baseUrl);
    if (url) yield { written, url, element };
  }
}

/** A link's text: its content, else its `aria-label`, `title` or `alt`, else an image's alt text. */
export function anchorText(anchor: PageElement): string {
  const text = collapseWhitespace(anchor.textContent ?? '');
  if (text) return text;
  const label = anchor.getAttribute('aria-label') ?? anchor.getAttribute('title') ?? anchor.getAttribute('alt');
  if (label) return collapseWhitespace(label);
  return collapseWhitespace(anchor.querySelector('img[alt]')?.getAttribute('alt') ?? '');
}

/**
 * The links a crawl or a map follows: normalised (fragments and tracking parameters dropped),
 * first occurrence order, each URL once with its first non-empty anchor text, at most
 * MAX_LINKS_PER_PAGE of them.
 *
 * @example
 * const { document, baseUrl } = parseLeanPage('<a href="/a#x">Install</a>', 'https://e.com/');
 * discoverLinks(document, baseUrl); // → [{ url: 'https://e.com/a', text: 'Install' }]
 */
export function discoverLinks(document: PageDocument, baseUrl: URL): PageLink[] {
  const byUrl = new Map<string, PageLink>();
  for (const anchor of pageAnchors(document, baseUrl)) {
    if (byUrl.size >= MAX_LINKS_PER_PAGE) break;
    const url = normalizeUrl(anchor.url.href);
    if (url === null || url.length > MAX_LINK_URL_LENGTH) continue;
    const text = anchorText(anchor.element).slice(0, MAX_TEXT);
    const seen = byUrl.get(url);
    if (seen === undefined) byUrl.set(url, { url, text });
    else if (seen.text === '' && text !== '') seen.text = text;
  }
  return [...byUrl.values()];
}

/** The title and the followable links of an HTML page (maps read pages this way, on the lean tree). */
export function readPageLinks(html: string, pageUrl: string): { title: string; links: PageLink[] } {
  const { document, baseUrl } = parseLeanPage(html, pageUrl);
  const title = collapseWhitespace(document.querySelector('title')?.textContent ?? '').slice(0, MAX_TEXT);
  return { title, links: discoverLinks(document, baseUrl) };
}

function absoluteHttpUrl(href: string, base: URL): URL | null {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
