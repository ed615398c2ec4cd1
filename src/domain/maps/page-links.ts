import { collapseWhitespace, parsePage } from '../../pipeline/dom.js';
import { normalizeUrl } from '../../url/normalize.js';
import { MAP_URL_MAX_LENGTH } from './map.schema.js';

/** A link of a page: the normalised absolute URL and its anchor text (may be empty). */
export interface PageLink {
  url: string;
  text: string;
}

export interface PageLinks {
  title: string;
  links: PageLink[];
}

/** A page with more links than this is a generated listing or a trap; the rest are not read. */
export const MAX_LINKS_PER_PAGE = 5_000;
const MAX_TEXT = 200;

/**
 * The title and the http(s) links of an HTML page (`<a href>`, `<area href>`), resolved against
 * `<base href>` or the page URL, normalised (fragments and tracking parameters dropped), first
 * occurrence order, each URL once with its first non-empty anchor text. Parsed with the
 * pipeline's one HTML parser, so a page reads the same here as in a scrape.
 *
 * @example
 * extractPageLinks('<title>Docs</title><a href="/a#x">Install</a>', 'https://e.com/').links;
 * // → [{ url: 'https://e.com/a', text: 'Install' }]
 */
export function extractPageLinks(html: string, pageUrl: string): PageLinks {
  const { document, baseUrl } = parsePage(html, pageUrl);
  const title = collapseWhitespace(document.querySelector('title')?.textContent ?? '').slice(0, MAX_TEXT);
  const byUrl = new Map<string, PageLink>();
  for (const anchor of document.querySelectorAll('a[href], area[href]')) {
    if (byUrl.size >= MAX_LINKS_PER_PAGE) break;
    const href = (anchor.getAttribute('href') ?? '').trim();
    if (href === '' || href.startsWith('#')) continue;
    const url = normalizeUrl(href, { base: baseUrl });
    if (url === null || url.length > MAP_URL_MAX_LENGTH) continue;
    const text = anchorText(anchor);
    const seen = byUrl.get(url);
    if (seen === undefined) byUrl.set(url, { url, text });
    else if (seen.text === '' && text !== '') seen.text = text;
  }
  return { title, links: [...byUrl.values()] };
}

function anchorText(anchor: Element): string {
  const text = collapseWhitespace(anchor.textContent ?? '');
  const label = text || anchor.getAttribute('aria-label') || anchor.getAttribute('title') || '';
  return collapseWhitespace(label).slice(0, MAX_TEXT);
}
