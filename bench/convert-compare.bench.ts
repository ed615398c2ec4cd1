/**
 * Markdown converters side by side, in CPU time per page on one thread (issue 17, item 1): the
 * turndown converter, the mdream converter (native addon and WebAssembly build), the parts of the
 * mdream converter (its HTML writer), linkedom's `outerHTML` of the cleaned root, raw mdream and
 * kreuzberg on the cleaned root's HTML and on the page as fetched (what a converter fed the string
 * directly would cost; their output is not this project's markdown), and the whole pipeline
 * (parse, metadata, cleanup, markdown) with turndown and with mdream.
 *
 *   node --import tsx bench/convert-compare.bench.ts [--pages 200] [--rounds 5] [--set site|golden|both] [--out convert-compare]
 *
 * Each round runs every variant over every page; a page's time is its fastest round (after one
 * warm-up round), so other load on the machine counts little. CPU time is `process.cpuUsage()`
 * (the whole process: V8's GC helper threads count too). The site set needs the generated site
 * (bench/generate-site.ts); the native mdream rows need its addon (npm skips it on Node 20:
 * `npm install --no-save @mdream/rust-linux-x64-gnu@1.7.2`, docs/content-pipeline.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { converterVariants, goldenPages, type Page, sitePages, timeVariant } from './lib/convert/converter-variants.js';
import { summarise } from './lib/measure/stats.js';
import { DEFAULT_SITE_DIR, RESULTS_DIR } from './lib/paths.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
    set: { type: 'string', default: 'both' },
    out: { type: 'string', default: 'convert-compare' },
  },
});
const rounds = Number(values.rounds);
const sets: { name: string; pages: Page[] }[] = [];
if (values.set !== 'golden')
  sets.push({ name: `site (${values.pages} articles)`, pages: sitePages(DEFAULT_SITE_DIR, Number(values.pages)) });
if (values.set !== 'site') sets.push({ name: 'golden pages', pages: goldenPages() });
const { variants, notes } = converterVariants();
const load = [os.loadavg()[0]!];

const lines: string[] = [];
const results: Record<string, Record<string, { mean: number; median: number }>> = {};
for (const set of sets) {
  const best = new Map(variants.map((v) => [v.id, set.pages.map(() => Number.POSITIVE_INFINITY)]));
  for (let round = 0; round <= rounds; round++) {
    for (const variant of variants) {
      const times = best.get(variant.id)!;
      set.pages.forEach((page, i) => {
        const ms = timeVariant(variant, page);
        if (round > 0) times[i] = Math.min(times[i]!, ms);
      });
    }
    process.stderr.write(`${set.name}: round ${round}/${rounds}\n`);
  }
  const reference = summarise(best.get('turndown')!);
  results[set.name] = {};
  lines.push(`\n### ${set.name}: CPU ms per page, fastest of ${rounds} rounds\n`);
  lines.push('| variant | mean | median | mean vs turndown |', '|---|---:|---:|---:|');
  for (const variant of variants) {
    const s = summarise(best.get(variant.id)!);
    results[set.name]![variant.id] = { mean: s.mean, median: s.median };
    lines.push(`| ${variant.id} | ${s.mean} | ${s.median} | ${(s.mean / reference.mean).toFixed(3)} |`);
  }
}
load.push(os.loadavg()[0]!);
const header = [
  `# Converters compared (${new Date().toISOString()})`,
  '',
  `\`node --import tsx bench/convert-compare.bench.ts ${process.argv.slice(2).join(' ')}\``.replace(/ `$/, '`'),
  '',
  `Machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}; load average ${load.map((l) => l.toFixed(2)).join(' → ')}.`,
  ...notes.map((note) => `Note: ${note}.`),
];
const report = [...header, ...lines, ''].join('\n');
process.stdout.write(report);
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(path.join(RESULTS_DIR, `${values.out}.json`), JSON.stringify({ load, notes, results }, null, 2));
writeFileSync(path.join(RESULTS_DIR, `${values.out}.md`), report);
