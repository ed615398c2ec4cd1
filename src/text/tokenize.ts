/**
 * Words of free text as search compares them: URL ranking (src/url/rank.ts) and passage
 * ranking (src/text/bm25.ts) use the same ones, for the query and the documents alike.
 *
 * Tokens are words split on anything that is not a letter or digit, on camelCase and on
 * letter/digit boundaries (so `unitPrice` and `unit_price` both give `unit`, `price`),
 * lower-cased, with Latin/Greek/Cyrillic diacritics folded (`Café` → `cafe`), Han/Kana
 * characters taken one by one (those scripts do not separate words), and a light plural
 * folding (`pages` → `page`, `policies` → `policy`, `classes` → `class`); no other stemming
 * and no stop words.
 */

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
