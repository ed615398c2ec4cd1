/**
 * Orders links by relevance to a query with BM25 over the page's links: each link is a small
 * document made of its URL's words (host, path, query) and its anchor text. Ties, including
 * every link that shares no word with the query, keep page order (the sort is stable).
 */

export interface RankableLink {
  url: URL;
  /** Anchor text (all anchors pointing at this URL, joined). */
  text: string;
}

const K1 = 1.2;
const B = 0.75;

/** Lower-cased words of letters and digits, plurals folded ("pricing plans" → pricing, plan). */
export function tokenize(text: string): string[] {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  const tokens: string[] = [];
  for (const word of words) if (word) tokens.push(stem(word));
  return tokens;
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function linkTokens(link: RankableLink): string[] {
  const host = link.url.hostname.replace(/^www\./, '');
  return tokenize(`${host} ${safeDecode(link.url.pathname)} ${safeDecode(link.url.search)} ${link.text}`);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** BM25 scores of each link for the query, in the links' order. */
export function scoreLinks(links: readonly RankableLink[], query: string): number[] {
  const queryTerms = [...new Set(tokenize(query))];
  if (queryTerms.length === 0 || links.length === 0) return links.map(() => 0);
  const documents = links.map((link) => {
    const counts = new Map<string, number>();
    const tokens = linkTokens(link);
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    return { counts, length: tokens.length };
  });
  const averageLength = documents.reduce((sum, doc) => sum + doc.length, 0) / documents.length || 1;
  const idf = new Map<string, number>();
  for (const term of queryTerms) {
    const df = documents.filter((doc) => doc.counts.has(term)).length;
    idf.set(term, Math.log(1 + (documents.length - df + 0.5) / (df + 0.5)));
  }
  return documents.map((doc) => {
    let score = 0;
    for (const term of queryTerms) {
      const tf = doc.counts.get(term) ?? 0;
      if (tf === 0) continue;
      const norm = tf + K1 * (1 - B + (B * doc.length) / averageLength);
      score += (idf.get(term) ?? 0) * ((tf * (K1 + 1)) / norm);
    }
    return score;
  });
}

/** The links ordered by descending relevance; equal scores keep their page order. */
export function rankLinks<T extends RankableLink>(links: readonly T[], query: string): T[] {
  const scores = scoreLinks(links, query);
  return links
    .map((link, index) => ({ link, score: scores[index] ?? 0 }))
    .sort((a, b) => b.score - a.score)
    .map((entry) => entry.link);
}
