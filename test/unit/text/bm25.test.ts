import { describe, expect, it } from 'vitest';
import { createBm25Index, rankPassages } from '../../../src/text/bm25.js';
import { splitPassages, type Passage } from '../../../src/text/passages.js';

/** Passages without headings, so the arithmetic below is over their text alone. */
function passages(...texts: string[]): Passage[] {
  return texts.map((text, index) => ({
    source: `doc${index}`,
    index,
    start: 0,
    end: text.length,
    heading: null,
    text,
  }));
}

describe('BM25', () => {
  // Three documents: lengths 3, 2, 4 (avgdl 3), N = 3, k1 = 1.2, b = 0.75.
  //   IDF(apple)  = ln(1 + (3 − 1 + 0.5) / (1 + 0.5)) = ln(2.6667) = 0.980829
  //   IDF(cherry) = ln(1 + (3 − 2 + 0.5) / (2 + 0.5)) = ln(1.6)    = 0.470004
  //   D1: apple f=2, |D|=3: norm = 1.2 · (0.25 + 0.75 · 3/3) = 1.2; 2 · 2.2 / (2 + 1.2) = 1.375 → 1.348640
  //   D2: cherry f=1, |D|=2: norm = 1.2 · (0.25 + 0.75 · 2/3) = 0.9; 2.2 / 1.9 = 1.157895  → 0.544215
  //   D3: cherry f=1, |D|=4: norm = 1.2 · (0.25 + 0.75 · 4/3) = 1.5; 2.2 / 2.5 = 0.88      → 0.413604
  const docs = ['apple banana apple', 'banana cherry', 'cherry date elderberry fig'];

  it('scores documents as computed by hand', () => {
    const scores = createBm25Index(docs).score('apple cherry');
    expect(scores[0]).toBeCloseTo(1.34864, 5);
    expect(scores[1]).toBeCloseTo(0.544215, 5);
    expect(scores[2]).toBeCloseTo(0.413604, 5);
  });

  it('counts a repeated query term once, and ignores terms no document has', () => {
    const index = createBm25Index(docs);
    expect(index.score('apple apple cherry zucchini')).toEqual(index.score('apple cherry'));
  });

  it('applies k1 and b: with b = 0 length does not matter', () => {
    // b = 0: norm = k1 for every document, so D2 and D3 (cherry once each) tie at 0.470004 · 2.2 / 2.2.
    const scores = createBm25Index(docs, { b: 0 }).score('cherry');
    expect(scores[1]).toBeCloseTo(0.470004, 5);
    expect(scores[2]).toBeCloseTo(0.470004, 5);
    expect(scores[0]).toBe(0);
  });

  it('ranks passages best first, leaves out those that do not match, and keeps ties in order', () => {
    const ranked = rankPassages(passages(...docs, 'banana cherry'), 'cherry');
    expect(ranked.map((p) => p.source)).toEqual(['doc1', 'doc3', 'doc2']);
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
    expect(rankPassages(passages(...docs), 'apple cherry', { limit: 1 }).map((p) => p.source)).toEqual(['doc0']);
  });

  it('matches plural and singular forms and any letter case', () => {
    const ranked = rankPassages(passages('Our PRICES are low', 'Opening hours: 9-5'), 'price');
    expect(ranked.map((p) => p.source)).toEqual(['doc0']);
  });

  it("counts a passage's heading as part of it", () => {
    const split = splitPassages('# Shop\n\nWelcome.\n\n## Pricing\n\nTwelve euros a month.', { source: 'page' });
    const ranked = rankPassages(split, 'pricing');
    expect(ranked[0]!.text).toContain('Twelve euros');
  });

  it('ranks across sources with shared statistics', () => {
    const a = splitPassages('Postgres full text search uses tsvector.', { source: 'https://a.example/' });
    const b = splitPassages('SearXNG is a metasearch engine.', { source: 'https://b.example/' });
    const ranked = rankPassages([...a, ...b], 'metasearch engine');
    expect(ranked.map((p) => p.source)).toEqual(['https://b.example/']);
  });
});
