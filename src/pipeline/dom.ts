import { parseHTML } from 'linkedom';
import { buildLeanTree } from './lean/lean-parser.js';
import type { LeanDocument } from './lean/lean-tree.js';
import type { PageDocument, PageElement, PageNode } from './page-node.js';

/**
 * The one HTML parse of a page, and the DOM helpers every stage shares. Two parses give the same
 * tree: `parseLeanPage` (the lean tree, lean/: what the default stages need, ~10x cheaper) and
 * `parsePage` (linkedom's DOM, for requests that need a real DOM: Readability, the extractor, the
 * html format, turndown). Both run htmlparser2 (linkedom's), which does not run the HTML5
 * tree-construction algorithm, so the helpers below paper over the two differences that matter
 * (missing `<html>`/`<body>`, and upper-case attribute names, which it keeps as written).
 */

/** The parsed page. `document` is linkedom's; typed as the DOM's so stages read like browser code. */
export interface ParsedPage {
  document: Document;
  /** Base for relative URLs: `<base href>` resolved against the final URL, else the final URL. */
  baseUrl: URL;
}

const HAS_HTML_ELEMENT = /<html[\s>]/i;
/** Cheap hint that some attribute name is written in upper case (legacy HTML: `<A HREF=...>`). */
const UPPER_CASE_ATTRIBUTE = /\s[A-Z][A-Za-z-]*=/;

/** The page parsed as the lean tree: what the default stages read (`PageNode`), and nothing more. */
export interface LeanPage {
  document: LeanDocument;
  baseUrl: URL;
}

/**
 * The source both parses read. Without <html>, htmlparser2 makes the first element the document
 * element and leaves the rest beside it; wrapping gives every page one root (head elements then sit
 * in body, which the metadata stage and the converters handle).
 */
function pageSource(text: string): string {
  const wrapped = HAS_HTML_ELEMENT.test(text) ? text : `<html><body>${text}</body></html>`;
  return repairHeadingEndTags(wrapped);
}

/**
 * The lean tree of a page: the same nodes `parsePage` gives, built from the parser's events in one
 * pass (lean/lean-parser.ts says how each of the fix-ups below is done while building).
 */
export function parseLeanPage(text: string, finalUrl: string): LeanPage {
  const source = pageSource(text);
  const document = buildLeanTree(source, { lowerCaseAttributes: UPPER_CASE_ATTRIBUTE.test(source) });
  return { document, baseUrl: resolveBaseUrl(document, finalUrl) };
}

export function parsePage(text: string, finalUrl: string): ParsedPage {
  const source = pageSource(text);
  const document = parseHTML(source).document as unknown as Document;
  if (UPPER_CASE_ATTRIBUTE.test(source)) lowerCaseAttributeNames(document);
  // htmlparser2 emits a text node per entity ("a ", "<", "div", ">") and splits text at a "<" that
  // starts no tag ("a < b"): merged, text reads as one string again (escaping depends on it) and
  // there are fewer nodes to convert. The lean tree is built merged.
  document.normalize();
  return { document, baseUrl: resolveBaseUrl(document, finalUrl) };
}

const HEADING_TAG = /<(\/?)h([1-6])(?=[\s>/])/gi;

/**
 * `<h1>Title</h2>`: a browser closes the heading at any heading end tag; htmlparser2 ignores the
 * mismatched one and the rest of the page ends up inside the heading. End tags are rewritten to
 * the level of the heading they close (only when some mismatch, so the common case allocates nothing).
 */
export function repairHeadingEndTags(source: string): string {
  let open: string | null = null;
  let mismatch = false;
  for (const match of source.matchAll(HEADING_TAG)) {
    if (!match[1]) open = match[2] as string;
    else if (open !== null && match[2] !== open) mismatch = true;
    else open = null;
    if (mismatch) break;
  }
  if (!mismatch) return source;
  open = null;
  return source.replace(HEADING_TAG, (tag, slash: string, level: string) => {
    if (!slash) {
      open = level;
      return tag;
    }
    const closes = open ?? level;
    open = null;
    return `</h${closes}`;
  });
}

function lowerCaseAttributeNames(document: Document): void {
  for (const element of document.querySelectorAll('*')) {
    for (const attribute of Array.from(element.attributes)) {
      const lower = attribute.name.toLowerCase();
      if (lower === attribute.name) continue;
      const value = attribute.value;
      element.removeAttribute(attribute.name);
      if (!element.hasAttribute(lower)) element.setAttribute(lower, value);
    }
  }
}

function resolveBaseUrl(document: PageDocument, finalUrl: string): URL {
  const page = new URL(finalUrl);
  const href = document.querySelector('base[href]')?.getAttribute('href')?.trim();
  if (!href) return page;
  try {
    const base = new URL(href, page);
    return base.protocol === 'http:' || base.protocol === 'https:' ? base : page;
  } catch {
    return page;
  }
}

/**
 * The element whose content is the page: `<body>`, unless content sits outside it (a page with
 * a stray `</body>` or none, which linkedom leaves as siblings), then the whole `<html>`.
 */
export function pageRoot<E extends PageElement>(document: { documentElement: E | null; body: E | null }): E {
  const html = document.documentElement as E;
  const body = document.body;
  if (!body || body.parentNode !== html) return html;
  for (let node = body.nextSibling; node; node = node.nextSibling) {
    if (node.nodeType === 1 || (node.nodeType === 3 && (node.textContent ?? '').trim() !== '')) return html;
  }
  return body;
}

/** Resolves `value` against `base`; null for empty values and `javascript:`/`data:`/`vbscript:` URLs. */
export function resolveUrl(value: string | null | undefined, base: URL): string | null {
  const raw = value?.trim();
  if (!raw) return null;
  if (/^(?:javascript|data|vbscript):/i.test(raw)) return null;
  try {
    return new URL(raw, base).href;
  } catch {
    return null;
  }
}

/** Collapses runs of whitespace (including newlines) to one space and trims. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** True for ASCII-whitespace-only strings. */
export function isBlankText(text: string | null | undefined): boolean {
  return !text || !/\S/.test(text);
}

/**
 * The nearest ancestor (or the node itself) named `name` (upper case). linkedom compiles a
 * selector on every `closest()` call (~15 µs); rules that ask this for every table cell use this walk.
 */
export function ancestorNamed<E extends PageElement = Element>(node: PageNode, name: string): E | null {
  for (let current: PageNode | null = node; current; current = current.parentNode) {
    if (current.nodeName === name) return current as E;
  }
  return null;
}

/** The nearest ancestor (or the node itself) carrying a class matching `pattern`. */
export function ancestorWithClass(node: PageNode, pattern: RegExp): PageElement | null {
  for (let current: PageNode | null = node; current; current = current.parentNode) {
    if (current.nodeType === 1 && pattern.test((current as PageElement).getAttribute('class') ?? '')) {
      return current as PageElement;
    }
  }
  return null;
}

/**
 * Whether some descendant element of `parent` has the local name `name` (lower case: linkedom
 * builds an upper-case `nodeName` on every read); a walk, for the same reason as `ancestorNamed`.
 */
export function hasDescendantNamed(parent: PageNode, name: string): boolean {
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== 1) continue;
    if ((child as PageElement).localName === name || hasDescendantNamed(child, name)) return true;
  }
  return false;
}
