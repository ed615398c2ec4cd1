import type { CheerioCrawlingContext } from '@crawlee/cheerio';
import type { FoundLink } from '../../src/engine/crawl-engine.js';
import { normalizeUrl } from '../../src/url/normalize.js';

type Cheerio$ = CheerioCrawlingContext['$'];

/** A page with more links than this is a generated listing or a trap; the rest are not read. */
export const MAX_LINKS_PER_PAGE = 5_000;
const MAX_TEXT = 200;
const MAX_URL_LENGTH = 8192;

/**
 * The http(s) links of a parsed page (`<a href>`, `<area href>`), resolved against `<base href>`
 * or the page URL, normalised (fragments and tracking parameters dropped), each URL once with
 * its first non-empty anchor text, in document order. The same rules as map link discovery
 * (src/domain/maps/page-links.ts), over the document Crawlee already parsed.
 *
 * @example
 * extractLinks($, 'https://e.com/docs/'); // [{ url: 'https://e.com/docs/install', text: 'Install' }, …]
 */
export function extractLinks($: Cheerio$, pageUrl: string): FoundLink[] {
  const base = baseOf($, pageUrl);
  const byUrl = new Map<string, FoundLink>();
  for (const element of $('a[href], area[href]').toArray()) {
    if (byUrl.size >= MAX_LINKS_PER_PAGE) break;
    const node = $(element);
    const href = (node.attr('href') ?? '').trim();
    if (href === '' || href.startsWith('#')) continue;
    const url = normalizeUrl(href, { base });
    if (url === null || url.length > MAX_URL_LENGTH) continue;
    const text = collapse(node.text()) || collapse(node.attr('aria-label') ?? '') || collapse(node.attr('title') ?? '');
    const seen = byUrl.get(url);
    if (seen === undefined) byUrl.set(url, { url, text: text.slice(0, MAX_TEXT) });
    else if (seen.text === '' && text !== '') seen.text = text.slice(0, MAX_TEXT);
  }
  return [...byUrl.values()];
}

function baseOf($: Cheerio$, pageUrl: string): string {
  const href = $('base[href]').first().attr('href');
  if (!href) return pageUrl;
  try {
    return new URL(href.trim(), pageUrl).href;
  } catch {
    return pageUrl;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
