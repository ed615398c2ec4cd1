import { createHash } from 'node:crypto';
import { planCleanup, runCleanup } from '../../../pipeline/cleanup.js';
import { pageRoot, parsePage, resolveUrl } from '../../../pipeline/dom.js';
import { htmlToText } from '../../../pipeline/text-converter.js';
import type { DetectionOptions } from './detection-options.js';
import { createLineMasker, noiseSelectors } from './noise-filters.js';
import { unhideDocumentRoot } from './noise-selectors.js';
import { decideProductState, type ProductState } from './product/product-state.js';
import { readStructuredProduct } from './product/structured-data.js';
import { matchingLineIndexes } from './text-rules.js';

/**
 * A snapshot: what one fetch of a watched page looked like, as a JSON-serialisable object the
 * monitor module stores (as an object in the blob store) and compares with the next one.
 * `text` is the page's normalised text, one logical line per block (paragraph, heading, list
 * item, table row), whitespace collapsed; the noise filters do not rewrite it (they only mask
 * comparison keys, computed again at each comparison). `fingerprint` is a hash of the
 * comparison keys and the settings that shaped them: two snapshots with equal fingerprints
 * have no text change, without a diff.
 */
export interface MonitorSnapshot {
  version: 1;
  url: string;
  text: string;
  /** `sha256:<hex>` of the comparison keys and `DetectionOptions.signature`. */
  fingerprint: string;
  /** Price and stock read by the processors; null when both processors are off. */
  product: ProductState | null;
  /** With `include_selectors`: whether any element matched (a page redesign can break them). Else null. */
  include_selectors_matched: boolean | null;
}

/** The page as fetched: HTML, or plain text (JSON, text/plain) taken line by line. */
export type SnapshotInput = { url: string; html: string } | { url: string; text: string };

/**
 * @example
 * const options = resolveDetectionOptions({ ignore_selectors: ['.reviews'] });
 * const snapshot = captureSnapshot({ url: 'https://shop.example/kettle', html }, options);
 * snapshot.product?.price; // { amount: '19.99', currency: 'USD', source: 'json-ld' }
 */
export function captureSnapshot(input: SnapshotInput, options: DetectionOptions): MonitorSnapshot {
  if ('text' in input) {
    const text = normaliseLines(input.text.split(/\r\n|\r|\n/)).join('\n');
    return finish(input.url, text, null, null, options);
  }
  const { document, baseUrl } = parsePage(input.html, input.url);
  const processorsOn = options.processors.price || options.processors.restock;
  const structured = processorsOn ? readStructuredProduct(document) : null;
  if (options.noise_filters.hidden_elements) unhideDocumentRoot(document);
  const remove = [...noiseSelectors(options.noise_filters), ...options.ignore_selectors];
  runCleanup(document, planCleanup({ selectors: remove, removeImages: false, removeClassNames: [] }));
  const roots = scopeRoots(document, options.include_selectors);
  const product = structured ? decideProductState(structured, roots, options.processors) : null;
  if (options.include_links) for (const root of roots) writeLinkTargets(root, baseUrl);
  const text = normaliseLines(roots.flatMap((root) => htmlToText(root).split('\n'))).join('\n');
  const matched = options.include_selectors.length > 0 ? roots.length > 0 : null;
  return finish(input.url, text, product, matched, options);
}

function finish(
  url: string,
  text: string,
  product: ProductState | null,
  matched: boolean | null,
  options: DetectionOptions,
): MonitorSnapshot {
  const keys = comparableLines(text, options).map((line) => line.key);
  const fingerprint = `sha256:${createHash('sha256').update(options.signature).update('\n').update(keys.join('\n')).digest('hex')}`;
  return { version: 1, url, text, fingerprint, product, include_selectors_matched: matched };
}

/** The outermost elements `selectors` match, in document order; the page root without selectors. */
function scopeRoots(document: Document, selectors: readonly string[]): Element[] {
  if (selectors.length === 0) return [pageRoot(document)];
  const matches = Array.from(document.querySelectorAll(selectors.join(', ')));
  return matches.filter((element) => !matches.some((other) => other !== element && other.contains(element)));
}

/** Appends ` <target>` inside each link, so `htmlToText` writes it after the link text. */
function writeLinkTargets(root: Element, baseUrl: URL): void {
  for (const anchor of root.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href')?.trim() ?? '';
    if (href.startsWith('#')) continue;
    const target = resolveUrl(href, baseUrl);
    if (target) anchor.appendChild(anchor.ownerDocument.createTextNode(` <${target}>`));
  }
}

const INVISIBLE = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;

/** Trims, collapses whitespace (tabs between table cells too) and drops empty lines. */
export function normaliseLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const clean = line.normalize('NFC').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
    if (clean) out.push(clean);
  }
  return out;
}

/** One line of a snapshot as compared: the text a reader sees and its comparison key. */
export interface ComparableLine {
  text: string;
  key: string;
}

/**
 * The lines of a snapshot's text that take part in comparison under `options`: lines matching
 * `ignore_text` are left out, and each line's key is the line with noise masked.
 */
export function comparableLines(text: string, options: DetectionOptions): ComparableLine[] {
  const lines = text === '' ? [] : text.split('\n');
  const ignored = new Set(matchingLineIndexes(lines, options.ignore_text));
  const mask = createLineMasker(options.noise_filters);
  return lines.flatMap((line, i) => (ignored.has(i) ? [] : [{ text: line, key: mask(line) }]));
}
