/**
 * Relevance ranking of URLs for `search_query` + `top_n` (maps, and the links a crawl follows
 * from each page): Okapi BM25 over the words of the URL (host labels, path segments, query)
 * and any text known for it (anchor text, page title).
 *
 * Tokens are words split on anything that is not a letter or digit, on camelCase and on
 * letter/digit boundaries, lower-cased, with Latin/Greek/Cyrillic diacritics folded
 * (`Café` → `cafe`), Han/Kana characters taken one by one (those scripts do not separate
 * words), and a light plural folding (`pages` → `page`, `policies` → `policy`) applied to
 * the query and the documents alike.
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

/** A document word that starts with a query word (`install` → `installation`) counts this much. */
const PREFIX_WEIGHT = 0.5;
const PREFIX_MIN_LENGTH = 3;
/** URL words that say nothing about the page. */
const URL_NOISE = new Set(['http', 'https', 'www', 'html', 'htm', 'php', 'asp', 'aspx', 'jsp', 'cgi']);

const SPLIT = /[^\p{L}\p{N}]+/u;
/** camelCase, HTMLParser and letter/digit boundaries (zero-width, so `a1b2` splits fully). */
const BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/gu;
const IDEOGRAPHIC = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

function fold(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2); // classes, boxes, matches
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

function pushWord(out: string[], word: string): void {
  if (word === '') return;
  if (!IDEOGRAPHIC.test(word)) {
    out.push(fold(word));
    return;
  }
  // Mixed runs such as "東京tower": ideographs one by one, other letters as one word.
  let rest = '';
  for (const char of word) {
    if (IDEOGRAPHIC.test(char)) {
      if (rest !== '') out.push(fold(rest));
      rest = '';
      out.push(char);
    } else rest += char;
  }
  if (rest !== '') out.push(fold(rest));
}

/** 0 other, 1 lower, 2 upper, 3 digit. */
function asciiClass(c: number): number {
  if (c >= 97 && c <= 122) return 1;
  if (c >= 65 && c <= 90) return 2;
  if (c >= 48 && c <= 57) return 3;
  return 0;
}

/**
 * The same rules as the Unicode path for ASCII text (nearly every URL), in one pass over char
 * codes: a regular expression with look-behinds was the main cost of ranking 100k URLs.
 */
function asciiWords(text: string): string[] {
  const out: string[] = [];
  let start = -1;
  let prev = 0;
  for (let i = 0; i <= text.length; i++) {
    const kind = i < text.length ? asciiClass(text.charCodeAt(i)) : 0;
    const split =
      start >= 0 &&
      (kind === 0 ||
        (prev === 1 && kind === 2) || // camelCase
        (prev === 2 && kind === 2 && asciiClass(text.charCodeAt(i + 1)) === 1) || // HTMLParser
        (prev === 3) !== (kind === 3)); // letters and digits
    if (split) out.push(fold(text.slice(start, i).toLowerCase()));
    if (kind === 0) start = -1;
    else if (split || start < 0) start = i;
    prev = kind;
  }
  return out;
}

/**
 * Words of free text, as compared by the ranking.
 *
 * @example
 * tokenize('getStarted with the HTMLParser, Café 2024'); // ['get', 'started', 'with', 'the', 'html', 'parser', 'cafe', '2024']
 */
export function tokenize(text: string): string[] {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return asciiWords(text);
  const s = text
    .normalize('NFKC')
    .replace(BOUNDARY, ' ')
    .toLowerCase()
    .normalize('NFD')
    .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, '$1')
    .normalize('NFC');
  const out: string[] = [];
  for (const word of s.split(SPLIT)) pushWord(out, word);
  return out;
}

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
