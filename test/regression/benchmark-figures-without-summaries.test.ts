import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

// Broke: docs/benchmarks.md and docs/answers.md quoted figures of runs whose summaries were never
// committed (the module step's i12-* runs, crawl-i17-*, a hand-edited worktree, counts of an
// uncommitted script), and crawl.bench.ts wrote only git-ignored JSON, so its summaries were
// copied from the console. Every run the docs quote must have its committed summary, and every
// benchmark that writes raw results writes the summary to commit beside them.

const ROOT = path.resolve(import.meta.dirname, '../..');
const RESULTS = readdirSync(path.join(ROOT, 'bench/results'));
const docs = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => [`docs/${f}`, readFileSync(path.join(ROOT, 'docs', f), 'utf8')] as const);

it('has a committed summary for every run the docs show the command of', () => {
  const missing: string[] = [];
  for (const [file, text] of docs) {
    for (const [, name] of text.matchAll(/--out ([\w.<>-]+)/g)) {
      // `<side>`, `<commit>`: one summary per side or commit, named after the stem.
      const stem = name!.replace(/<[^>]+>.*$/, '');
      if (!RESULTS.some((r) => r.startsWith(stem) && r.endsWith('.md'))) missing.push(`${file}: --out ${name}`);
    }
    for (const [, name] of text.matchAll(/bench\/results\/([\w.-]+\.md)/g))
      if (!/^[A-Z]+\.md$/.test(name!) && !RESULTS.includes(name!)) missing.push(`${file}: bench/results/${name}`);
  }
  expect(missing).toEqual([]);
});

it('quotes no run that was never committed', () => {
  for (const [file, text] of docs) {
    // The withdrawn runs are named only to say that their figures are withdrawn.
    for (const m of text.matchAll(/[^\n]*\b(i12-|crawl-i17-)[^\n]*/g))
      expect(text.slice(Math.max(0, m.index - 600), m.index + 600), file).toMatch(/withdrawn|never committed/);
  }
});

it('writes a summary to commit wherever a benchmark writes raw results', () => {
  const benches = readdirSync(path.join(ROOT, 'bench')).filter((f) => f.endsWith('.ts'));
  const jsonOnly = benches.filter((f) => {
    const text = readFileSync(path.join(ROOT, 'bench', f), 'utf8');
    return /\.json`/.test(text) && text.includes('RESULTS_DIR') && !/\.md`/.test(text);
  });
  expect(jsonOnly).toEqual([]);
  expect(existsSync(path.join(ROOT, 'bench/results/s27-parity-memory.md'))).toBe(true);
});
