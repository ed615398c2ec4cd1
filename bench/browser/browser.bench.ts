/**
 * Browser engine benchmark (issue 4, item 8): the playwright engine's fetchPage against a bare
 * playwright-core loop (new context, page, goto until `load`, content(), close) on the same pages
 * of the generated site, in the same run, at several concurrencies. Run by hand, never by `npm test`:
 *
 *   node --import tsx bench/browser/browser.bench.ts --concurrency 1,4,8 --requests 120
 *
 * Options: --concurrency LIST (default 1,4,8) --requests N (measured pages per side and
 * concurrency, default 120) --warmup N (default 10) --rounds N (each side measured N times per
 * concurrency, alternating which goes first; default 2) --articles N (site size, default 2000)
 * --pool N (engine pool size, default: the largest concurrency) --out NAME (results file stem).
 * Writes bench/results/NAME.json and NAME.md. See docs/benchmarks.md, "Browser engine".
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { forkTs } from '../lib/child-process.js';
import { runFixedConcurrency } from '../lib/measure/fixed-concurrency.js';
import { round, summarise } from '../lib/measure/stats.js';
import { BENCH_DIR, DEFAULT_SITE_DIR, RESULTS_DIR } from '../lib/paths.js';
import { ensureSite } from '../lib/site/site-generator.js';
import { locateChromium } from '../../engines/playwright/chromium-path.js';
import { processTreeCpuMs } from '../../engines/playwright/process-tree.js';
import { bareSide, engineSide, type BrowserSide } from './browser-sides.js';
import { renderBrowserReport, type BrowserBenchResult, type BrowserPhase } from './browser-report.js';
import { sampleTreeMemory } from './tree-memory.js';

const { values } = parseArgs({
  options: {
    concurrency: { type: 'string', default: '1,4,8' },
    requests: { type: 'string', default: '120' },
    warmup: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    articles: { type: 'string', default: '2000' },
    pool: { type: 'string' },
    out: { type: 'string', default: 'browser' },
  },
});
const concurrencies = values.concurrency.split(',').map(Number);
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const rounds = Number(values.rounds);
const poolSize = Number(values.pool ?? Math.max(...concurrencies));
const log = (line: string) => process.stderr.write(`${line}\n`);

const chromium = locateChromium(null);
if (chromium.path === null) throw new Error(chromium.reason);
const manifest = await ensureSite(DEFAULT_SITE_DIR, { articles: Number(values.articles), seed: '1' });
const server = await forkTs<{ origin: string; pid: number }>(path.join(BENCH_DIR, 'serve-site.ts'), {
  args: ['--root', DEFAULT_SITE_DIR],
});
const origin = server.ready.origin;
log(`site ${origin} (pid ${server.ready.pid}), chromium ${chromium.path}, pool ${poolSize}, load ${os.loadavg()[0]}`);

const needed = (warmup + requests) * rounds;
const paths = manifest.articlePaths;
let cursor = 0;
/** Fresh pages for every phase (no side profits from a page the other warmed), wrapping if the site is small. */
const nextUrls = (count: number) => Array.from({ length: count }, () => `${origin}${paths[cursor++ % paths.length]!}`);

const phases: BrowserPhase[] = [];
try {
  for (const concurrency of concurrencies) {
    for (let round_ = 0; round_ < rounds; round_++) {
      const order: (() => BrowserSide)[] =
        round_ % 2 === 0
          ? [() => bareSide(chromium.path), () => engineSide(chromium.path, poolSize)]
          : [() => engineSide(chromium.path, poolSize), () => bareSide(chromium.path)];
      for (const make of order) phases.push(await measure(make(), concurrency, round_));
    }
  }
} finally {
  await server.stop();
}

/** CPU of this process and its browser (not the site server), ms. */
function ourCpuMs(): number {
  return processTreeCpuMs(process.pid) - processTreeCpuMs(server.ready.pid);
}

async function measure(side: BrowserSide, concurrency: number, round_: number): Promise<BrowserPhase> {
  await side.start();
  try {
    const warm = await runFixedConcurrency(nextUrls(warmup), concurrency, (url) => side.scrape(url));
    if (warm.failures.length > 0) throw new Error(`${side.name} warm-up failed: ${warm.failures[0]!.message}`);
    const memory = sampleTreeMemory(process.pid, [server.ready.pid]);
    const cpuBefore = ourCpuMs();
    const result = await runFixedConcurrency(nextUrls(requests), concurrency, (url) => side.scrape(url));
    const cpuMs = ourCpuMs() - cpuBefore;
    const peak = memory.stop();
    const latency = summarise(result.latenciesMs);
    const phase: BrowserPhase = {
      side: side.name,
      concurrency,
      round: round_,
      pages: result.latenciesMs.length,
      failures: result.failures.length,
      firstFailure: result.failures[0]?.message ?? null,
      pagesPerSecond: round((result.latenciesMs.length / result.wallMs) * 1000),
      latency,
      peakRssMb: round(peak.rssBytes / 2 ** 20, 0),
      peakPssMb: round(peak.pssBytes / 2 ** 20, 0),
      cpuMsPerPage: round(cpuMs / result.latenciesMs.length, 1),
    };
    log(
      `${side.name.padEnd(6)} c=${concurrency} r=${round_}: ${phase.pagesPerSecond} pages/s, median ${latency.median} ms, ` +
        `CPU ${phase.cpuMsPerPage} ms/page, ` +
        `p95 ${latency.p95} ms, peak RSS ${phase.peakRssMb} MB (PSS ${phase.peakPssMb} MB), failures ${phase.failures}`,
    );
    return phase;
  } finally {
    await side.stop();
  }
}

const result: BrowserBenchResult = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
  },
  loadAverage: os.loadavg().map((l) => round(l)),
  chromium: chromium.path,
  options: { concurrencies, requests, warmup, rounds, poolSize, pagesPerPhase: needed },
  phases,
};
await fs.mkdir(RESULTS_DIR, { recursive: true });
await fs.writeFile(path.join(RESULTS_DIR, `${values.out}.json`), `${JSON.stringify(result, null, 2)}\n`);
const report = renderBrowserReport(result);
await fs.writeFile(path.join(RESULTS_DIR, `${values.out}.md`), report);
process.stdout.write(report);
