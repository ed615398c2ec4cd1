import { createBm25Index, searchableText } from '../text/bm25.js';
import { splitPassages, type Passage } from '../text/passages.js';
import { cutToTokens, estimateTokens } from '../text/token-estimate.js';
import type { JsonSchema, ModelLimits } from './model-provider.js';

/** Share of a budget the estimate may use: code, URLs and numbers tokenise denser than prose. */
const SAFETY = 0.85;
/** Share of the budget kept for the page's beginning (its title, what it is about). */
const BEGINNING_SHARE = 0.15;
const GAP = '\n\n[…]\n\n';

export interface FitOptions {
  /** What matters: the task, prompt or `schemaQueryText(schema)`. */
  query: string;
  /** Tokens the text may take (see `pageTokenBudget`). */
  budgetTokens: number;
  /** Passage size (default 1000 characters). */
  maxPassageChars?: number;
}

export interface FittedText {
  /** The text, or its chosen passages in document order with `[…]` where some were left out. */
  text: string;
  /** False when the whole text fitted. */
  cut: boolean;
  /** Passages kept (all of them when nothing was cut). */
  kept: Passage[];
  /** Passages left out. */
  omitted: number;
}

/**
 * Fits a page into a token budget by choosing passages, not by cutting its end: the page's
 * beginning is always kept (about 15 % of the budget: title and introduction), then the
 * passages BM25 ranks best for `query`, then the rest in document order while room is left,
 * all put back in document order. Token counts are estimates (`estimateTokens`) used at 85 %
 * of the budget.
 *
 * @example
 * const budget = pageTokenBudget(provider.limits, [system, task, JSON.stringify(schema)]);
 * const fitted = fitToTokenBudget(markdown, { query: `${task} ${schemaQueryText(schema)}`, budgetTokens: budget });
 */
export function fitToTokenBudget(text: string, options: FitOptions): FittedText {
  const budget = Math.floor(Math.max(0, options.budgetTokens) * SAFETY);
  const passages = splitPassages(text, { maxChars: options.maxPassageChars });
  if (estimateTokens(text) <= budget) return { text, cut: false, kept: passages, omitted: 0 };
  if (passages.length === 0) return { text: '', cut: true, kept: [], omitted: 0 };

  // What a passage may add to the output: itself, a gap marker and its section's name.
  const cost = passages.map((p) => estimateTokens(p.text) + estimateTokens(GAP) + estimateTokens(p.heading ?? '') + 1);
  const chosen = new Set<number>();
  let used = 0;
  const take = (i: number, limit: number) => {
    if (chosen.has(i) || used + cost[i]! > limit) return;
    chosen.add(i);
    used += cost[i]!;
  };
  take(0, budget);
  for (let i = 1; i < passages.length && used + cost[i]! <= budget * BEGINNING_SHARE; i++) take(i, budget);
  const scores = createBm25Index(passages.map(searchableText)).score(options.query);
  const byScore = passages.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]! || a - b);
  for (const i of byScore) take(i, budget);

  const kept = [...chosen].sort((a, b) => a - b).map((i) => passages[i]!);
  if (kept.length === 0) {
    // Not even the first passage fits: its beginning, cut to the budget.
    const first = cutToTokens(passages[0]!.text, budget);
    return {
      text: first,
      cut: true,
      kept: [{ ...passages[0]!, text: first, end: passages[0]!.start + first.length }],
      omitted: passages.length,
    };
  }
  return { text: join(kept), cut: true, kept, omitted: passages.length - kept.length };
}

/**
 * Tokens left for page text in a model call: the context window minus the reply's
 * `maxOutputTokens` and the fixed parts of the prompt (system, task, schema…), minus a small
 * allowance for the chat template's own tokens. Never negative.
 */
export function pageTokenBudget(limits: ModelLimits, fixedParts: readonly string[]): number {
  const fixed = fixedParts.reduce((total, part) => total + estimateTokens(part), 0);
  const templateTokens = 64;
  return Math.max(0, limits.contextTokens - limits.maxOutputTokens - fixed - templateTokens);
}

/**
 * Query text a JSON Schema implies: its property names (the tokenizer splits `unitPrice` and
 * `unit_price` into words), titles, descriptions and string enum values, nested objects and
 * arrays included. Used to rank page passages for extraction.
 *
 * @example
 * schemaQueryText({ type: 'object', properties: { unit_price: { description: 'in euros' } } }); // 'unit_price in euros'
 */
export function schemaQueryText(schema: JsonSchema): string {
  const words: string[] = [];
  const visit = (node: unknown, depth: number) => {
    if (depth > 16 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => visit(n, depth + 1));
    const record = node as Record<string, unknown>;
    for (const key of ['title', 'description'] as const) {
      if (typeof record[key] === 'string') words.push(record[key]);
    }
    if (Array.isArray(record.enum)) words.push(...record.enum.filter((v): v is string => typeof v === 'string'));
    if (record.properties && typeof record.properties === 'object') {
      for (const [key, value] of Object.entries(record.properties)) {
        words.push(key);
        visit(value, depth + 1);
      }
    }
    for (const key of ['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf', '$defs', 'definitions'] as const) {
      const child = record[key];
      if (key === '$defs' || key === 'definitions') {
        if (child && typeof child === 'object') Object.values(child).forEach((v) => visit(v, depth + 1));
      } else visit(child, depth + 1);
    }
  };
  visit(schema, 0);
  return words.join(' ');
}

function join(kept: Passage[]): string {
  let out = '';
  for (const [n, passage] of kept.entries()) {
    const previous = kept[n - 1];
    if (previous) out += passage.index === previous.index + 1 ? '\n\n' : GAP;
    else if (passage.index > 0) out += GAP.trimStart();
    // A passage shown away from its heading says which section it is from.
    const headed = passage.heading && !/^ {0,3}#/.test(passage.text);
    const contiguous = previous !== undefined && passage.index === previous.index + 1;
    out += headed && !contiguous ? `(${passage.heading})\n${passage.text}` : passage.text;
  }
  return out;
}
