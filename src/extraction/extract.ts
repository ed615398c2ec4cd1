import { candidatesOf } from './candidates.js';
import type { PageFacts, RecordSource } from './facts.js';
import { fillAny, type FillState, type ScopedSource } from './fill.js';
import { readHtmlFacts } from './html-facts.js';
import type { ResolvedSchema } from './json-schema.js';
import { isPlainObject } from './json-schema.js';
import { typesOf } from './json-ld.js';
import { keyTokens, matchScore, requestedKey, STRONG_MATCH } from './key-names.js';
import { type Passage, readPassageFacts } from './text-facts.js';

/**
 * The result of filling a schema without a model. `data` has exactly the schema's shape: every
 * property present, `null` where the page did not say, arrays `[]` when nothing fits.
 */
export interface ExtractionResult {
  data: unknown;
  /** Rule that filled each key, by dotted path (`price` → `json-ld:Product.offers.price`, `plans` → `table:Pricing`). */
  provenance: Record<string, string>;
  /** Paths of keys that were filled (scalars, and arrays with items), in schema order. */
  filled: string[];
  /** Paths of keys left `null` or `[]`, in schema order. Keys inside array items are not listed. */
  empty: string[];
  /** URLs of the pages (passages) that filled at least one key. */
  sources: string[];
}

export interface ExtractOptions {
  schema: ResolvedSchema;
  /** The request's `prompt`: its words help choose which of the page's items the schema describes. */
  prompt?: string;
}

/**
 * Fills `schema` from an HTML page: JSON-LD, microdata, Open Graph and meta tags, definition
 * lists, tables, `label: value` text, lists under headings and repeated blocks. Deterministic
 * and synchronous (plain data in and out, so it can run on a conversion thread).
 *
 * @example
 * const schema = toResolvedSchema({ title: '', price: 0, currency: '' }, 'json_format');
 * const result = extractFromHtml({ html, url: 'https://shop.example/p/1' }, { schema });
 * result.data; // { title: 'Trail Runner 2', price: 129.95, currency: 'EUR' }
 * formatExtractionWarning(result); // which keys came from which rule, which stayed null
 */
export function extractFromHtml(page: { html: string; url: string }, options: ExtractOptions): ExtractionResult {
  return extractFromFacts(readHtmlFacts(page.html, page.url), options);
}

/**
 * Fills `schema` from text passages (markdown or plain text, several pages), as answers do
 * without a model: `label: value` lines, markdown tables and lists under headings. Earlier
 * passages win.
 */
export function extractFromPassages(
  passages: readonly Passage[],
  options: ExtractOptions & { language?: string },
): ExtractionResult {
  return extractFromFacts(readPassageFacts(passages, options.language), options);
}

/** Fills `schema` from facts already read (see `readHtmlFacts`, `readPassageFacts`). */
export function extractFromFacts(facts: PageFacts, options: ExtractOptions): ExtractionResult {
  const items = itemScope(facts.items, options);
  let state = fill(facts, options, [...items, ...facts.fields.map(open)]);
  // A page that answers none of three or more keys but by its own heading or <title> is not
  // about the requested thing (an error page, a bot check): its heading is no product name.
  const total = state.filled.length + state.empty.length;
  if (
    total >= 3 &&
    state.filled.length > 0 &&
    state.filled.every((path) => PAGE_NAME_RULES.has(state.provenance[path] ?? ''))
  ) {
    state = fill(facts, options, [
      ...items,
      ...facts.fields.filter((source) => !PAGE_NAME_RULES.has(source.rule)).map(open),
    ]);
  }
  return {
    data: state.data,
    provenance: state.provenance,
    filled: state.filled,
    empty: state.empty,
    sources: [...state.urls],
  };
}

const PAGE_NAME_RULES = new Set(['h1', 'title']);

function fill(facts: PageFacts, options: ExtractOptions, sources: ScopedSource[]): FillState & { data: unknown } {
  const state: FillState = { facts, provenance: {}, filled: [], empty: [], urls: new Set() };
  const data = fillAny(options.schema, null, { sources, page: true }, '', state);
  return { ...state, data };
}

function open(source: RecordSource): ScopedSource {
  return { source, restricted: false };
}

/** Types that describe the page or site around the content, not the content. */
const PAGE_TYPES = new Set([
  'WebSite',
  'WebPage',
  'BreadcrumbList',
  'SiteNavigationElement',
  'WPHeader',
  'WPFooter',
  'WPSideBar',
  'SearchAction',
  'ImageObject',
  'CollectionPage',
  'ItemPage',
  'ContactPage',
  'AboutPage',
  'ProfilePage',
  'SearchResultsPage',
  'ReadAction',
]);

const OWNER_TYPES = new Set(['Organization', 'Corporation', 'Brand', 'NewsMediaOrganization', 'OnlineStore']);

/**
 * The page's structured items with the one the schema describes first: the item answering most
 * top-level keys by name, the prompt's and schema title's words breaking ties; page furniture
 * (WebSite, WebPage, BreadcrumbList...) only when those words name it. The others stay
 * readable, but only for keys that are not generic (`name`, `title`, `url`...).
 */
function itemScope(items: RecordSource[], options: ExtractOptions): ScopedSource[] {
  const expanded = items.flatMap(withMainEntity);
  if (expanded.length === 0) return [];
  const hints = new Set(
    keyTokens(`${options.prompt ?? ''} ${options.schema.title ?? ''} ${options.schema.description ?? ''}`),
  );
  const keys = (options.schema.properties ?? []).map(([key, property]) => requestedKey(key, property.description));
  let best: RecordSource | null = null;
  let bestScore = 0;
  for (const item of expanded) {
    const candidates = candidatesOf(item);
    let score = keys.filter((key) =>
      candidates.some((candidate) => matchScore(key, candidate.name) >= STRONG_MATCH),
    ).length;
    const types = typesOf(item.node);
    const hinted = types.some((type) => {
      const tokens = keyTokens(type);
      return tokens.every((token) => hints.has(token)) || hints.has(tokens.join(''));
    });
    if (hinted) score += 0.5;
    // The page and site around the content (WebSite, WebPage...) describe the thing only when asked.
    else if (types.some((type) => PAGE_TYPES.has(type))) continue;
    // The site's owner is on every page: on a tie, the page's own item wins.
    else if (types.some((type) => OWNER_TYPES.has(type))) score -= 0.1;
    if (score > bestScore) {
      best = item;
      bestScore = score;
    }
  }
  const rest = expanded.filter((item) => item !== best).map((source) => ({ source, restricted: true }));
  return best ? [{ source: best, restricted: false }, ...rest] : rest;
}

/** A WebPage's `mainEntity` (a ProfilePage's Person, an ItemPage's Product) is an item of its own. */
function withMainEntity(item: RecordSource): RecordSource[] {
  const types = typesOf(item.node);
  const main = item.node.mainEntity;
  if (!types.some((type) => PAGE_TYPES.has(type)) || main === undefined) return [item];
  const entities = (Array.isArray(main) ? main : [main]).filter(isPlainObject);
  const prefix = `${item.rule}:${types[0] ?? 'Thing'}.mainEntity`;
  return [item, ...entities.map((node) => ({ rule: item.rule, node, structured: true, url: item.url, prefix }))];
}
