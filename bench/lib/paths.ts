import path from 'node:path';

/** Where the benchmarks live, write and read (all relative to this file, not to the working directory). */
export const BENCH_DIR = path.resolve(import.meta.dirname, '..');
export const REPO_ROOT = path.resolve(BENCH_DIR, '..');
/** Generated sites; `bench/site/` is git-ignored. */
export const DEFAULT_SITE_DIR = path.join(BENCH_DIR, 'site', 'out');
/** Raw results (`*.json`, git-ignored) and summaries (`*.md`, committed). */
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');
