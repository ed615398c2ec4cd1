/**
 * Generates the benchmark site (deterministic for a seed).
 *
 *   node --import tsx bench/generate-site.ts [--pages 2000] [--seed 1] [--out bench/site/out]
 *
 * `bench/site/` is git-ignored: the output never lands in a commit.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SITE_DIR } from './lib/paths.js';
import { writeSite } from './lib/site/site-generator.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: DEFAULT_SITE_DIR },
  },
});
const started = performance.now();
const manifest = await writeSite(path.resolve(values.out), { articles: Number(values.pages), seed: values.seed });
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(
  `${manifest.files} files, ${(manifest.totalBytes / 1048576).toFixed(1)} MiB in ${seconds} s → ${values.out}\n` +
    `articles: ${manifest.articlePaths.length}, ${manifest.articleBytes.min}–${manifest.articleBytes.max} bytes ` +
    `(mean ${manifest.articleBytes.mean})\n`,
);
