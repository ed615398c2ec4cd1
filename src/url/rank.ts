import { tokenize } from '../text/tokenize.js';

/**
 * Relevance ranking of URLs for `search_query` + `top_n` (maps, and the links a crawl follows
 * from each page): Okapi BM25 over the words of the URL (host labels, path segments, query)
 * and any text known for it (anchor text, page title), tokenised by `tokenize`
 * (src/text/tokenize.ts), the same words passage ranking uses.
 */

export interface RankItem {
  url: string;
  /** Anchor text, title or other words known for the URL. */
  text?: string;
}

export interface Ranked<T> {
  item: T;
  score: number;
  /** Position of the item in the input (ties keep input order). */
  index: number;
}

export interface RankOptions {
  /** Term-frequency saturation (default 1.2). */
  k1?: number;
  /** Length normalisation (default 0.75). */
  b?: number;
  /** Drop items that match no query word (default false: they follow the matches, in input order). */
  onlyMatches?: boolean;
}

export { tokenize };

/** A document word that starts with a query word (`install` → `installation`) counts this much. */
const PREFIX_WEIGHT = 0.5;
const PREFIX_MIN_LENGTH = 3;
/** URL words that say nothing about the page. */
const URL_NOISE = new Set(['http', 'https', 'www', 'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'cgi']);

function decode(part: string): string {
  if (!part.includes('%') && !part.includes('+')) return part;
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * Words of a URL: host labels (without `www`), path segments (a trailing `.html`-like
 * extension dropped) and query names and values, percent-decoded.
 *
 * @example
 * urlTokens('https://docs.example.com/guides/getting-started.html?lang=en'); // ['doc', 'example', 'com', 'guide', 'getting', 'started', 'lang', 'en']
 */
export function urlTokens(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return tokenize(decode(url)).filter((t) => !URL_NOISE.has(t));
  }
  const path = parsed.pathname.replace(/\.(html?|php|aspx?|jsp|cgi)$/i, '');
  const text = `${parsed.hostname} ${decode(path)} ${decode(parsed.search.slice(1))}`;
  return tokenize(text).filter((t) => !URL_NOISE.has(t));
}

function termFrequencies(tokens: readonly string[], terms: readonly string[], into: Float64Array, row: number): void {
  for (const token of tokens) {
    for (let q = 0; q < terms.length; q++) {
      const term = terms[q] as string;
      if (token === term) into[row + q]! += 1;
      else if (term.length >= PREFIX_MIN_LENGTH && token.length > term.length && token.startsWith(term)) {
        into[row + q]! += PREFIX_WEIGHT;
      }
    }
  }
}

/**
 * Sorts items by BM25 relevance to `query`, best first; equal scores keep input order, so the
 * result is deterministic. `topN` keeps the first n. An empty query (no words) returns the
 * items in input order with score 0.
 *
 * @example
 * rankByQuery([{ url: 'https://a.example/blog' }, { url: 'https://a.example/pricing', text: 'Plans and pricing' }], 'pricing', 1);
 * // → [{ item: { url: 'https://a.example/pricing', … }, score: 0.87…, index: 1 }]
 */
export function rankByQuery<T extends RankItem>(
  items: readonly T[],
  query: string,
  topN?: number,
  options: RankOptions = {},
): Ranked<T>[] {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const terms = [...new Set(tokenize(query))];
  const n = items.length;
  const q = terms.length;
  const tf = new Float64Array(n * q);
  const lengths = new Float64Array(n);
  let totalLength = 0;
  for (let i = 0; i < n; i++) {
    const item = items[i] as T;
    const tokens = urlTokens(item.url);
    if (item.text !== undefined && item.text !== '') tokens.push(...tokenize(item.text));
    lengths[i] = tokens.length;
    totalLength += tokens.length;
    if (q > 0) termFrequencies(tokens, terms, tf, i * q);
  }
  const idf = terms.map((_term, t) => {
    let df = 0;
    for (let i = 0; i < n; i++) if (tf[i * q + t]! > 0) df++;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  const avg = totalLength / Math.max(1, n) || 1;
  const ranked: Ranked<T>[] = [];
  for (let i = 0; i < n; i++) {
    let score = 0;
    for (let t = 0; t < q; t++) {
      const f = tf[i * q + t]!;
      if (f > 0) score += (idf[t] as number) * ((f * (k1 + 1)) / (f + k1 * (1 - b + (b * lengths[i]!) / avg)));
    }
    if (score > 0 || options.onlyMatches !== true) ranked.push({ item: items[i] as T, score, index: i });
  }
  ranked.sort((x, y) => y.score - x.score || x.index - y.index);
  return topN === undefined ? ranked : ranked.slice(0, Math.max(0, Math.floor(topN)));
}
