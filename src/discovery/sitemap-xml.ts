import { scanXml, decodeXmlEntities, type XmlHandler } from './xml-tokenizer.js';

/**
 * Reads the entries of an XML sitemap, sitemap index, RSS or Atom feed from the token stream,
 * keeping only an element stack (bounded) and the entry being read.
 */

export type XmlSitemapKind = 'urlset' | 'sitemapindex' | 'rss' | 'atom' | 'unknown';

/** A raw entry: `loc` as written in the document (not yet resolved or normalised). */
export interface RawEntry {
  loc: string;
  lastmod?: string;
}

export interface XmlSitemapResult {
  kind: XmlSitemapKind;
  /** Page entries (urlset, rss items, atom entries) or child sitemaps (sitemapindex). */
  entries: RawEntry[];
  /** First well-formedness problem, if any (the entries read before and after it are kept). */
  error: string | null;
  /** True when `maxEntries` stopped the scan. */
  limited: boolean;
}

interface Shape {
  container: string;
  loc: string;
  dates: readonly string[];
}

const SHAPES: Record<Exclude<XmlSitemapKind, 'unknown'>, Shape> = {
  urlset: { container: 'url', loc: 'loc', dates: ['lastmod'] },
  sitemapindex: { container: 'sitemap', loc: 'loc', dates: ['lastmod'] },
  rss: { container: 'item', loc: 'link', dates: ['pubdate', 'date', 'updated'] },
  atom: { container: 'entry', loc: 'link', dates: ['updated', 'published'] },
};

const ROOTS: Record<string, Exclude<XmlSitemapKind, 'unknown'>> = {
  urlset: 'urlset',
  sitemapindex: 'sitemapindex',
  rss: 'rss',
  rdf: 'rss',
  feed: 'atom',
};

/** Deeper nesting than this is not a sitemap; the stack stops growing (depth is still counted). */
const MAX_STACK = 64;
/** Longer `loc` text is no URL anyone can fetch (the protocol caps URLs at 2,048 characters). */
const MAX_FIELD_CHARS = 8192;

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return (colon < 0 ? qualified : qualified.slice(colon + 1)).toLowerCase();
}

function attribute(raw: string, wanted: string): string | undefined {
  const re = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(raw); m !== null; m = re.exec(raw)) {
    if (localName(m[1] ?? '') === wanted) return decodeXmlEntities(m[2] ?? m[3] ?? '');
  }
  return undefined;
}

class SitemapReader implements XmlHandler {
  kind: XmlSitemapKind = 'unknown';
  readonly entries: RawEntry[] = [];
  limited = false;
  mismatch: string | null = null;
  private shape: Shape | null = null;
  private readonly stack: string[] = [];
  private depth = 0;
  private entryDepth = -1;
  private entry: { loc?: string; lastmod?: string } = {};
  private field: 'loc' | 'lastmod' | null = null;
  private fieldDepth = -1;
  private fieldText = '';

  constructor(private readonly maxEntries: number) {}

  get openElements(): number {
    return this.depth;
  }

  wantsText(): boolean {
    return this.field !== null;
  }

  shouldStop(): boolean {
    return this.limited;
  }

  text(text: string): void {
    if (this.fieldText.length <= MAX_FIELD_CHARS) this.fieldText += text;
  }

  open(name: string, rawAttributes: string, selfClosing: boolean): void {
    const local = localName(name);
    this.depth++;
    if (this.depth <= MAX_STACK) this.stack.push(local);
    if (this.depth === 1) {
      this.kind = ROOTS[local] ?? 'unknown';
      this.shape = this.kind === 'unknown' ? null : SHAPES[this.kind];
      return;
    }
    const shape = this.shape;
    if (shape === null) return;
    if (this.entryDepth < 0) {
      if (local === shape.container) {
        this.entryDepth = this.depth;
        this.entry = {};
      }
      return;
    }
    // Only direct children count: <image:loc> inside <image:image> is an image, not a page.
    if (this.depth !== this.entryDepth + 1 || this.field !== null) return;
    if (this.kind === 'atom' && local === 'link') {
      const rel = attribute(rawAttributes, 'rel');
      const href = attribute(rawAttributes, 'href');
      if (href !== undefined && (rel === undefined || rel === 'alternate') && this.entry.loc === undefined) {
        this.entry.loc = href;
      }
      return;
    }
    const field = local === shape.loc ? 'loc' : shape.dates.includes(local) ? 'lastmod' : null;
    if (field !== null && !selfClosing && this.entry[field] === undefined) {
      this.field = field;
      this.fieldDepth = this.depth;
      this.fieldText = '';
    }
  }

  close(name: string): void {
    // Beyond the tracked depth names are unknown: any end tag closes one level.
    if (this.depth > MAX_STACK) {
      this.popOne();
      return;
    }
    // Tolerate broken nesting: close up to the nearest open element with this name, or ignore.
    const local = localName(name);
    let at = this.depth - 1;
    while (at >= 0 && this.stack[at] !== local) at--;
    if (at < 0) {
      this.mismatch ??= `unexpected </${name}>`;
      return;
    }
    if (at !== this.depth - 1) this.mismatch ??= `</${name}> closes elements left open`;
    while (this.depth > at) this.popOne();
  }

  /** End of input: a field cut short is discarded (a partial URL is a wrong URL), entries whose fields completed are kept. */
  finish(): void {
    if (this.limited) return;
    this.field = null;
    while (this.depth > 0) this.popOne();
  }

  private popOne(): void {
    if (this.field !== null && this.depth === this.fieldDepth) {
      const value = this.fieldText.trim();
      if (value !== '' && this.fieldText.length <= MAX_FIELD_CHARS) this.entry[this.field] = value;
      this.field = null;
    }
    if (this.depth === this.entryDepth) {
      this.entryDepth = -1;
      if (this.entry.loc !== undefined) {
        this.entries.push(
          this.entry.lastmod === undefined
            ? { loc: this.entry.loc }
            : { loc: this.entry.loc, lastmod: this.entry.lastmod },
        );
        if (this.entries.length >= this.maxEntries) this.limited = true;
      }
    }
    if (this.depth <= MAX_STACK) this.stack.pop();
    this.depth--;
  }
}

/**
 * Extracts entries from an XML sitemap-like document. Never throws; `error` tells what was
 * wrong with a malformed one, and everything readable is still returned.
 *
 * @example
 * readXmlSitemap('<urlset><url><loc>https://a.example/x</loc></url></urlset>', 10);
 * // → { kind: 'urlset', entries: [{ loc: 'https://a.example/x' }], error: null, limited: false }
 */
export function readXmlSitemap(xml: string, maxEntries: number): XmlSitemapResult {
  const reader = new SitemapReader(Math.max(1, maxEntries));
  const { error } = scanXml(xml, reader);
  let problem = error ?? reader.mismatch;
  if (problem === null && !reader.limited && reader.openElements > 0) {
    problem = 'document ended before its root element closed';
  }
  reader.finish();
  return { kind: reader.kind, entries: reader.entries, error: problem, limited: reader.limited };
}
