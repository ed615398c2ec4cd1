import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPieces } from '../../src/domain/pages/search-pieces.js';
import { SearchVectors, type SearchVectorQuery } from '../../src/domain/pages/search-vector.js';
import { startApiContainer, type ApiContainer } from '../support/api-container.js';

// A page's text vector assembled from pieces must be Postgres's own `to_tsvector('english', …)`
// to the position (docs/answers.md, "The stored-pages index"). Checked here against the
// test server; bench/search-vector-parity.ts checks the 2,000 bench pages on the embedded database.

let h: ApiContainer;
let statements = 0;
const query: SearchVectorQuery = (sql, params) => {
  statements++;
  return h.sql(sql, params);
};

beforeAll(async () => {
  h = await startApiContainer('search-vector');
}, 120_000);
afterAll(() => h?.close());

async function postgresVector(text: string): Promise<string> {
  const [row] = await h.sql<{ v: string }>(`select to_tsvector('english', ?)::text as v`, [text]);
  return row!.v;
}

async function assembled(vectors: SearchVectors, text: string): Promise<string | null> {
  const literal = await vectors.literal(text);
  if (literal === null) return null;
  const [row] = await h.sql<{ v: string }>(`select ?::tsvector::text as v`, [literal]);
  return row!.v;
}

const EDGE_CASES: Record<string, string> = {
  words: 'The quick brown foxes were jumping over the lazy dogs, and the dogs did not mind at all.',
  'stop words at both ends': 'the and of a searching is the',
  hyphens: 'A well-known state-of-the-art co-operative, re-run and x-1 sub-2-part --- hy- phen',
  'urls and hosts':
    'See [the docs](https://example.com/docs/start?x=1&y=2#top), http://a.b.c:8080/p/q.html, www.example.org and (example.net).',
  'quotes and backslashes in lexemes': "x http://example.com/a'b\\c?d='e' /usr/o'k\\x f\\g it's",
  'emails and files': 'Write to someone@example.com or <a.b@c.io>; files /usr/local/bin/node, ./run.sh and ~/x/y.txt',
  numbers: 'Version 1.2.3, float 3.14, sci 1e10 and -2.5E-3, int -42, +7, uint 42, 1,000,000 and 12:30',
  'code and markdown':
    '```ts\nconst x = a<b && c>d ? f(x) : g[y];\nfoo_bar.baz(1)\n```\n| a | b |\n|---|---|\n| `c` | **d** |',
  'tags spanning blanks': 'Before <div class=note id=x> inside </div> and List<String> a <b c> d x < y > z <br/> end',
  'tag tails within a piece': 'x<b>y<i  title>z and <p>one</p><p >two</p >',
  'unclosed tag start': 'text with <unclosed tag that never ends and more words after it',
  entities: 'Fish &amp; chips &lt;tag&gt; &#169; &#x1F600; &nbsp;word &bogus',
  apostrophes: "don't won't it's O'Reilly's rock'n'roll",
  'non-ASCII': 'Café naïve résumé Ärger Größe — العربية نص 日本語のテキスト 中文 Ελληνικά кириллица',
  'unicode blanks': 'a\u00a0b c\u2003d e\u3000f\u200bg',
  'tabs and lines': 'one\ttwo\nthree\r\nfour\fvive\vsix',
  punctuation: '(parenthesised) [bracketed] {braced} "quoted" \'single\' «guillemets» ¿qué? ¡sí! ... —dash— ;:,.',
  underscores: '__init__ snake_case _private trailing_ a__b',
  'repeated past 255 positions': Array.from({ length: 400 }, () => 'repeat word').join(' '),
  'past position 16383': Array.from({ length: 17_000 }, (_, i) => `w${i % 40}`).join(' '),
};

describe('search vectors assembled from pieces', () => {
  it("equal Postgres's to_tsvector on edge cases", async () => {
    const vectors = new SearchVectors(query, { maxPieces: 10_000 });
    for (const [name, text] of Object.entries(EDGE_CASES)) {
      expect({ name, vector: await assembled(vectors, text) }).toEqual({ name, vector: await postgresVector(text) });
    }
  });

  it("equal Postgres's to_tsvector on the golden pages, or leave them to it", async () => {
    const dir = path.resolve('test/fixtures/pages');
    const files = fs.readdirSync(dir).filter((name) => /\.(md|txt|html)$/.test(name));
    const vectors = new SearchVectors(query, { maxPieces: 100_000 });
    let equal = 0;
    for (const name of files) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8').slice(0, 20_000);
      const vector = await assembled(vectors, text);
      if (vector === null) {
        // Only HTML sources (quoted attributes, comments, scripts) are left to to_tsvector.
        expect(name).toMatch(/\.html$/);
        continue;
      }
      expect({ name, vector }).toEqual({ name, vector: await postgresVector(text) });
      equal++;
    }
    expect(equal).toBeGreaterThan(files.length / 2);
  });

  it('asks the database only for pieces it has not seen, in one statement', async () => {
    const vectors = new SearchVectors(query, { maxPieces: 1_000 });
    const text = 'Pieces seen once are remembered: seen, once, remembered.';
    await vectors.literal('warm up the sentinel check');
    statements = 0;
    const first = await vectors.literal(text);
    expect(statements).toBe(1);
    statements = 0;
    expect(await vectors.literal(text)).toBe(first);
    expect(await vectors.literal('remembered: once, Pieces seen')).not.toBeNull();
    expect(statements).toBe(0);
  });

  it('forgets when full, and still builds the same vectors, for pages in flight too', async () => {
    const vectors = new SearchVectors(query, { maxPieces: 4 });
    const text = 'alpha beta gamma delta epsilon zeta eta theta';
    for (let round = 0; round < 3; round++) {
      expect(await assembled(vectors, text)).toBe(await postgresVector(text));
    }
    // Pages assembled at once while each fills the memory: every one is still Postgres's vector,
    // or left to it (after three tries), never a mix of lexemes from before and after a reset.
    const texts = Array.from(
      { length: 6 },
      (_, i) => `page ${i} alpha beta searching searched ${'x'.repeat(i)}y words`,
    );
    const built = await Promise.all(texts.map((t) => assembled(vectors, t)));
    // Some must be assembled (the last to read after the last reset always is; all 6 are, run
    // alone): a memory that gave up on every page would pass the loop below without a check.
    expect(built.filter((v) => v !== null).length).toBeGreaterThan(0);
    for (const [i, vector] of built.entries()) {
      if (vector !== null) expect(vector).toBe(await postgresVector(texts[i]!));
    }
  });

  it('builds the same vectors when its page numbers start again', async () => {
    const vectors = new SearchVectors(query, { maxPieces: 1_000 });
    const text = 'words and words again, then other words';
    const expected = await postgresVector(text);
    expect(await assembled(vectors, text)).toBe(expected);
    // White-box: the page counter is an Int32 in typed arrays; it must start again, not wrap.
    (vectors as unknown as { lexemes: { pages: number } }).lexemes.pages = 0x7ffffffe;
    for (let i = 0; i < 3; i++) expect(await assembled(vectors, text)).toBe(expected);
  });

  it('leaves to to_tsvector what it cannot cut safely, and everything when turned off', async () => {
    const vectors = new SearchVectors(query, { maxPieces: 1_000 });
    for (const text of [
      'a <a href="x y">link</a>',
      "a <b title='x'>",
      'a <!-- comment > still --> b',
      '<script>var hidden = 1;</script> shown',
      '<?xml version=1.0?> x',
      'the sentinel zqxj in a text',
      `long ${'x'.repeat(5_000)} piece`,
    ]) {
      expect(await vectors.literal(text)).toBeNull();
    }
    const off = new SearchVectors(query, { maxPieces: 0 });
    expect(await off.literal('plain words')).toBeNull();
  });
});

describe('searchPieces', () => {
  it('cuts at ASCII blanks and keeps a tag that spans blanks in one piece', () => {
    expect(searchPieces('  one two\tthree\n')).toEqual(['one', 'two', 'three']);
    expect(searchPieces('a x<b c>d e')).toEqual(['a', 'x<b c>d', 'e']);
    expect(searchPieces('a <b c> <d e> f')).toEqual(['a', '<b c>', '<d e>', 'f']);
    expect(searchPieces('a <b>x<i  y> z')).toEqual(['a', '<b>x<i  y>', 'z']);
    expect(searchPieces('x < y and a<3')).toEqual(['x', '<', 'y', 'and', 'a<3']);
  });
});
