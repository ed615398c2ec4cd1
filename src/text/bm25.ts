import type { Passage } from './passages.js';
import { tokenize } from './tokenize.js';

/**
 * BM25 parameters. `k1` is how fast repeated terms stop adding score (1.2: the third
 * occurrence adds little); `b` is how much longer passages are penalised (0.75: mostly
 * normalised by length). The usual values of Lucene and Elasticsearch.
 */
export interface Bm25Options {
  k1?: number;
  b?: number;
}

export interface RankedPassage extends Passage {
  score: number;
}

export interface RankOptions extends Bm25Options {
  /** Best passages returned at most (default: all that match). */
  limit?: number;
}

/**
 * Scores documents for queries with Okapi BM25 over the documents it was built from:
 *
 *   score(D, Q) = Σ over distinct terms q of Q: IDF(q) · f(q,D) · (k1 + 1) / (f(q,D) + k1 · (1 − b + b · |D| / avgdl))
 *   IDF(q) = ln(1 + (N − n(q) + 0.5) / (n(q) + 0.5))
 *
 * with f(q,D) the count of q in D, |D| the token count of D, avgdl the average over the N
 * documents and n(q) the documents containing q. This IDF (Lucene's) is never negative, so a
 * term found everywhere adds a little instead of subtracting. Tokens come from `tokenize`.
 *
 * @example
 * const index = createBm25Index(['red apples', 'green pears']);
 * index.score('apple'); // [0.693…, 0] (ln 2: one term, found in one of two documents)
 */
export interface Bm25Index {
  /** Score of every document for `query`, in document order. */
  score(query: string): number[];
}

export function createBm25Index(documents: readonly string[], options: Bm25Options = {}): Bm25Index {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const counts = documents.map(termCounts);
  const lengths = documents.map((_, i) => sum(counts[i]!.values()));
  const avgdl = lengths.length === 0 ? 0 : sum(lengths) / lengths.length;
  const containing = new Map<string, number>();
  for (const terms of counts) for (const term of terms.keys()) containing.set(term, (containing.get(term) ?? 0) + 1);
  const n = documents.length;
  return {
    score(query) {
      const terms = [...new Set(tokenize(query))];
      return counts.map((tf, i) => {
        const norm = k1 * (1 - b + (b * lengths[i]!) / (avgdl || 1));
        let score = 0;
        for (const term of terms) {
          const f = tf.get(term);
          if (!f) continue;
          const df = containing.get(term)!;
          score += Math.log(1 + (n - df + 0.5) / (df + 0.5)) * ((f * (k1 + 1)) / (f + norm));
        }
        return score;
      });
    },
  };
}

/**
 * The passages that match `query`, best first (ties keep their order in `passages`), each with
 * its BM25 score. A passage's heading counts as part of its text, so a passage under
 * "## Pricing" matches "price". Statistics (IDF, average length) come from `passages` alone:
 * rank the passages of every source together to compare them.
 *
 * @example
 * const passages = pages.flatMap((p) => splitPassages(p.markdown, { source: p.url }));
 * const best = rankPassages(passages, task, { limit: 12 });
 */
export function rankPassages(passages: readonly Passage[], query: string, options: RankOptions = {}): RankedPassage[] {
  const index = createBm25Index(passages.map(searchableText), options);
  const scores = index.score(query);
  const ranked = passages
    .map((passage, i) => ({ ...passage, score: scores[i]! }))
    .filter((p) => p.score > 0)
    .sort((x, y) => y.score - x.score);
  return options.limit === undefined ? ranked : ranked.slice(0, Math.max(0, options.limit));
}

/** What BM25 sees of a passage: its heading path, then its text. */
export function searchableText(passage: Passage): string {
  return passage.heading ? `${passage.heading}\n${passage.text}` : passage.text;
}

function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokenize(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
