import { ancestorNamed, collapseWhitespace, resolveUrl } from './dom.js';
import type { PageMetadata } from './types.js';
import type { PageDocument, PageElement } from './page-node.js';

/**
 * `page_metadata` from the page as served (before cleanup removes scripts, so JSON-LD is still
 * there): `<title>`, meta tags (name, property, http-equiv), Open Graph and Twitter cards,
 * canonical and icon links, and JSON-LD for author and dates when the meta tags lack them.
 * URLs come out absolute.
 */
export function extractPageMetadata(document: PageDocument, baseUrl: URL): PageMetadata {
  const found = scanDocument(document, baseUrl);
  const get = (...keys: string[]): string | undefined => keys.map((key) => found.meta.get(key)).find(Boolean);
  const url = (...keys: string[]): string | undefined => resolveUrl(get(...keys), baseUrl) ?? undefined;
  const linked = found.jsonLd.length > 0 ? readJsonLd(found.jsonLd) : {};
  const result: PageMetadata = {
    title: found.title || get('og:title', 'twitter:title') || '',
    description: get('description', 'og:description', 'twitter:description'),
    language: document.documentElement?.getAttribute('lang')?.trim() || get('content-language', 'og:locale'),
    canonical_url: found.canonical ?? undefined,
    og_title: get('og:title'),
    og_description: get('og:description'),
    og_image: url('og:image', 'og:image:url', 'og:image:secure_url'),
    og_url: url('og:url'),
    og_type: get('og:type'),
    og_site_name: get('og:site_name'),
    og_locale: get('og:locale'),
    twitter_card: get('twitter:card'),
    twitter_title: get('twitter:title'),
    twitter_description: get('twitter:description'),
    twitter_image: url('twitter:image', 'twitter:image:src'),
    favicon: found.favicon ?? undefined,
    keywords: get('keywords'),
    author: get('author', 'article:author', 'dc.creator') ?? linked.author,
    published_time: get('article:published_time', 'date', 'dc.date', 'dcterms.created', 'pubdate') ?? linked.published,
    modified_time: get('article:modified_time', 'og:updated_time', 'dcterms.modified') ?? linked.modified,
    robots: get('robots'),
  };
  for (const key of Object.keys(result) as Array<keyof PageMetadata>) {
    if (result[key] === undefined) delete result[key];
  }
  return result;
}

interface Scanned {
  title: string;
  meta: Map<string, string>;
  canonical: string | null;
  favicon: string | null;
  jsonLd: PageElement[];
}

/** One query over the document for everything metadata reads. */
function scanDocument(document: PageDocument, baseUrl: URL): Scanned {
  const found: Scanned = { title: '', meta: new Map(), canonical: null, favicon: null, jsonLd: [] };
  for (const element of document.querySelectorAll('title, meta, link[rel], script[type]')) {
    const name = element.nodeName;
    if (name === 'TITLE') {
      if (!found.title && !ancestorNamed(element, 'SVG')) found.title = collapseWhitespace(element.textContent ?? '');
    } else if (name === 'META') {
      readMeta(element, found.meta);
    } else if (name === 'LINK') {
      const rel = ` ${(element.getAttribute('rel') ?? '').toLowerCase()} `;
      if (!found.canonical && rel.includes(' canonical ')) {
        found.canonical = resolveUrl(element.getAttribute('href'), baseUrl);
      }
      if (!found.favicon && rel.includes(' icon ')) found.favicon = resolveUrl(element.getAttribute('href'), baseUrl);
    } else if (element.getAttribute('type')?.trim().toLowerCase() === 'application/ld+json') {
      found.jsonLd.push(element);
    }
  }
  return found;
}

/**
 * Every `<meta>` of the page by lower-case name (`property`, `name`, `http-equiv` or `itemprop`),
 * first value kept: what `page_metadata` picks from, for readers that need other names (the
 * extractor reads `product:price:amount`, `og:price:currency`, ...).
 */
export function readMetaTags(document: PageDocument): Map<string, string> {
  const meta = new Map<string, string>();
  for (const element of document.querySelectorAll('meta')) readMeta(element, meta);
  return meta;
}

function readMeta(element: PageElement, meta: Map<string, string>): void {
  const key = (
    element.getAttribute('property') ??
    element.getAttribute('name') ??
    element.getAttribute('http-equiv') ??
    element.getAttribute('itemprop') ??
    ''
  )
    .trim()
    .toLowerCase();
  const content = collapseWhitespace(element.getAttribute('content') ?? '');
  // The first value wins: pages repeat og:image for alternates, the first is the main one.
  if (key && content && !meta.has(key)) meta.set(key, content);
}

interface LinkedData {
  author?: string;
  published?: string;
  modified?: string;
}

/** Author and dates from JSON-LD (`Article`, `NewsArticle`, `BlogPosting`, ... or an `@graph` of them). */
function readJsonLd(scripts: PageElement[]): LinkedData {
  const found: LinkedData = {};
  const visit = (value: unknown, depth: number): void => {
    if (depth > 4 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const node = value as Record<string, unknown>;
    found.published ??= stringValue(node.datePublished);
    found.modified ??= stringValue(node.dateModified);
    found.author ??= personName(node.author);
    if (node['@graph']) visit(node['@graph'], depth + 1);
  };
  for (const script of scripts) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // Malformed JSON-LD is common and never fatal: it only feeds optional fields.
    }
  }
  return found;
}

function stringValue(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function personName(value: unknown): string | undefined {
  if (typeof value === 'string') return stringValue(value);
  if (Array.isArray(value)) {
    const names = value.map(personName).filter((name): name is string => !!name);
    return names.length > 0 ? names.join(', ') : undefined;
  }
  if (value && typeof value === 'object') return stringValue((value as Record<string, unknown>).name);
  return undefined;
}
