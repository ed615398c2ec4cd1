/**
 * Conversion time of the benchmark site's pages on the main thread and on a worker thread
 * with several young-generation sizes, as the service's conversion threads run
 * (src/pipeline/convert-pool.ts). Each variant runs in a fresh process, one after the other,
 * repeated in turn; a page's time is its fastest of the rounds, so other load on the machine
 * counts little.
 *
 *   node --import tsx bench/convert-threads.bench.ts [--pages 200] [--rounds 4] [--repeats 2]
 *        [--variants inline,8,16,48,default]
 *
 * `inline`: the main thread; a number: a worker with that `maxYoungGenerationSizeMb`;
 * `default`: a worker with V8's own sizing. Needs the generated site (bench/generate-site.ts).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { convertPages, loadArticles, type ConvertTimes } from './lib/convert/convert-pages.js';
import { summarise } from './lib/measure/stats.js';
import { startTsWorker } from '../src/runtime/worker-thread.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '4' },
    repeats: { type: 'string', default: '2' },
    variants: { type: 'string', default: 'inline,8,16,48,default' },
    'run-one': { type: 'string' },
  },
});
const siteDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'site', 'out');
const count = Number(values.pages);
const rounds = Number(values.rounds);

async function runVariant(variant: string): Promise<ConvertTimes> {
  if (variant === 'inline') return convertPages(loadArticles(siteDir, count), rounds);
  const youngMb = variant === 'default' ? undefined : Number(variant);
  if (youngMb !== undefined && !(youngMb > 0)) throw new Error(`unknown variant ${variant}`);
  const worker = startTsWorker(new URL('./lib/convert/convert-thread.ts', import.meta.url), {
    data: { siteDir, count, rounds },
    resourceLimits: youngMb ? { maxYoungGenerationSizeMb: youngMb } : {},
  });
  const times = await new Promise<ConvertTimes>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return times;
}

if (values['run-one']) {
  process.stdout.write(JSON.stringify(await runVariant(values['run-one'])));
} else {
  const variants = values.variants.split(',');
  const rows = new Map<string, { mean: number[]; median: number[] }>();
  for (let repeat = 0; repeat < Number(values.repeats); repeat++) {
    for (const variant of variants) {
      const out = execFileSync(
        process.execPath,
        [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2), '--run-one', variant],
        { encoding: 'utf8', maxBuffer: 64 << 20 },
      );
      const times = JSON.parse(out) as ConvertTimes;
      const s = summarise(times.bestMs);
      const row = rows.get(variant) ?? { mean: [], median: [] };
      row.mean.push(s.mean);
      row.median.push(s.median);
      rows.set(variant, row);
      console.error(`${variant}: mean ${s.mean} ms, median ${s.median} ms`);
    }
  }
  console.log(`\n${count} pages, fastest of ${rounds} rounds per page; one value per repeat\n`);
  console.log('| variant | mean ms/page | median ms/page |');
  console.log('|---|---:|---:|');
  for (const [variant, row] of rows) {
    const name =
      variant === 'inline'
        ? 'main thread'
        : variant === 'default'
          ? "worker, V8's young generation"
          : `worker, ${variant} MB young generation`;
    console.log(`| ${name} | ${row.mean.join(' / ')} | ${row.median.join(' / ')} |`);
  }
}
