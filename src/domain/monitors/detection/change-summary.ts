import type { ChangeDetection } from './change-detection.js';
import type { DataChange } from './data-diff.js';
import type { LineChange } from './line-diff.js';
import { formatPrice } from './product/price.js';
import type { ProductChange } from './product/product-state.js';

/**
 * The summary a monitor event carries when no model writes one: short sentences, most telling
 * first (price, stock, extracted data, then lines), each list cut to a few quoted examples and
 * the whole bounded in length. Deterministic: the same change always reads the same.
 *
 * "Price dropped from $19.99 to $17.49 (−12.5%). Back in stock. 2 lines added: ‘Free
 * shipping’, ‘New colour: red’. 1 line removed: ‘Pre-order now’."
 */

export interface SummaryOptions {
  /** Upper bound of the summary in characters (default 600, at least 80). */
  max_length?: number;
  /** Quoted examples per list (default 3). */
  max_examples?: number;
  /** Longest quoted line before it is cut (default 80). */
  max_quote?: number;
}

type Summarised = Pick<ChangeDetection, 'text' | 'product_changes' | 'data_changes'>;

export function summarizeChange(detection: Summarised, options: SummaryOptions = {}): string {
  const limits = {
    length: Math.max(80, options.max_length ?? 600),
    examples: Math.max(1, options.max_examples ?? 3),
    quote: Math.max(10, options.max_quote ?? 80),
  };
  const priceChanged = detection.product_changes.some((change) => change.field === 'price');
  const lines = detection.text.changes.filter((change) => !(priceChanged && isPriceOnly(change)));
  const sentences = [
    ...detection.product_changes.map(productSentence),
    ...dataSentences(detection.data_changes, limits),
    ...lineSentences(lines, limits),
  ];
  return bound(sentences, limits.length);
}

function productSentence(change: ProductChange): string {
  if (change.field === 'availability') return change.back_in_stock ? 'Back in stock.' : 'Now out of stock.';
  const verb = change.direction === 'down' ? 'dropped' : change.direction === 'up' ? 'rose' : 'changed';
  const percent =
    change.percent === null || change.direction === 'changed'
      ? ''
      : ` (${change.percent > 0 ? '+' : '−'}${Math.abs(change.percent)}%)`;
  return `Price ${verb} from ${formatPrice(change.from)} to ${formatPrice(change.to)}${percent}.`;
}

/** A changed line whose only differences are amounts: the price sentence already says it. */
function isPriceOnly(change: LineChange): boolean {
  if (change.type !== 'changed') return false;
  const differing = change.words.filter((segment) => segment.type !== 'equal').map((segment) => segment.text);
  return differing.every((text) => /^[\s\d.,'$€£¥₹-]*$/u.test(text));
}

function quote(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  return `‘${clean.length > max ? `${clean.slice(0, max - 1).trimEnd()}…` : clean}’`;
}

/**
 * `‘from’ → ‘to’`; when a side is too long to quote whole, both are quoted from a little before
 * their first difference, so the part that changed is what the reader sees.
 */
function changedQuote(change: Extract<LineChange, { type: 'changed' }>, max: number): string {
  if (change.from.length <= max && change.to.length <= max)
    return `${quote(change.from, max)} → ${quote(change.to, max)}`;
  let offset = 0;
  for (const segment of change.words) {
    if (segment.type !== 'equal') break;
    offset += segment.text.length;
  }
  const start = Math.max(0, offset - Math.floor(max / 4));
  const window = (text: string): string => quote(start > 0 ? `…${text.slice(start)}` : text, max);
  return `${window(change.from)} → ${window(change.to)}`;
}

function examples(items: readonly string[], limits: { examples: number }, separator = ', '): string {
  const shown = items.slice(0, limits.examples).join(separator);
  const rest = items.length - limits.examples;
  return rest > 0 ? `${shown} and ${rest} more` : shown;
}

function lineSentences(changes: readonly LineChange[], limits: { examples: number; quote: number }): string[] {
  const added = changes.flatMap((c) => (c.type === 'added' ? [quote(c.text, limits.quote)] : []));
  const removed = changes.flatMap((c) => (c.type === 'removed' ? [quote(c.text, limits.quote)] : []));
  const changed = changes.flatMap((c) => (c.type === 'changed' ? [changedQuote(c, limits.quote)] : []));
  const sentence = (items: string[], verb: string): string[] =>
    items.length === 0
      ? []
      : [`${items.length} ${items.length === 1 ? 'line' : 'lines'} ${verb}: ${examples(items, limits)}.`];
  return [...sentence(changed, 'changed'), ...sentence(added, 'added'), ...sentence(removed, 'removed')];
}

function value(data: unknown): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return text.length > 40 ? `${text.slice(0, 39).trimEnd()}…` : text;
}

function fieldName(path: string): string {
  if (path === '') return 'the data';
  return path
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function dataSentences(changes: readonly DataChange[], limits: { examples: number }): string[] {
  if (changes.length === 0) return [];
  const parts = changes.map((change) => {
    const field = fieldName(change.path);
    if (change.op === 'replace') return `${field} changed from ${value(change.from)} to ${value(change.value)}`;
    if (change.op === 'add') return `${field} added (${value(change.value)})`;
    return `${field} removed (was ${value(change.from)})`;
  });
  return [`Data: ${examples(parts, limits, '; ')}.`];
}

/** Whole sentences up to `max` characters, `…` marking what was left out; a first sentence longer than that is cut. */
function bound(sentences: readonly string[], max: number): string {
  let out = '';
  for (const sentence of sentences) {
    const next = out === '' ? sentence : `${out} ${sentence}`;
    if (next.length > max)
      return out === '' ? `${sentence.slice(0, max - 1).trimEnd()}…` : out.length + 2 <= max ? `${out} …` : out;
    out = next;
  }
  return out;
}
