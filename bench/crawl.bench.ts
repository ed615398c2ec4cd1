/**
 * Crawl benchmark (issue 6, item 5): a crawl of the generated 2,000-page site through the real
 * service (POST /v1/crawls: Crawlee's CheerioCrawler fed by the Postgres frontier, every page
 * converted to markdown, stored and recorded) beside a bare CheerioCrawler on the same site in
 * the same run (enqueueLinks, nothing stored). Sides alternate; each run crawls `--pages` pages
 * from the home page at the same fixed concurrency. Run by hand, never by `npm test`:
 *
 *   node --import tsx bench/crawl.bench.ts --pages 2000 --concurrency 8 --runs 3
 *
 * Options: --pages N (site articles and max_pages, default 2000) --concurrency N (both sides,
 * default 8) --runs N (per side, default 3) --seed S --database-url postgres://... (default: the
 * embedded database, as `npm start`) --cpu-prof DIR (the service process writes V8 CPU profiles
 * there as it stops; `bench/profile-summary.ts` summarises them) --set NAME=VALUE (a setting of
 * the service, repeatable) --out NAME. Writes bench/results/NAME.json (git-ignored) and NAME.md
 * (the summary to commit: the commit measured, the command, every run in order, the medians),
 * and prints the summary. See docs/benchmarks.md, "Crawls".
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { forkTs, type ForkedChild } from './lib/child-process.js';
import { cpuDelta, readCpuTime, readMemory, sampleMemory } from './lib/measure/proc-stats.js';
import { round } from './lib/measure/stats.js';
import { BENCH_DIR, DEFAULT_SITE_DIR, REPO_ROOT, RESULTS_DIR } from './lib/paths.js';
import { startRestartedService, type ServiceProcess } from './lib/service-process.js';
import { ensureSite } from './lib/site/site-generator.js';
import { settingsOf } from './lib/settings-args.js';

const { values } = parseArgs({
  options: {
    role: { type: 'string', default: 'main' },
    pages: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '8' },
    runs: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    site: { type: 'string', default: DEFAULT_SITE_DIR },
    'database-url': { type: 'string' },
    'cpu-prof': { type: 'string' },
    set: { type: 'string', multiple: true, default: [] },
    out: { type: 'string' },
  },
});
const MB = 1024 * 1024;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** One crawl of one side. */
interface Run {
  side: 'bare' | 'service';
  pages: number;
  ms: number;
  pagesPerSecond: number;
  /** CPU of the crawling process (all threads) during the run. */
  cpuMs: number;
  /** The service: summed VmRSS sampled every 20 ms; the bare crawler: its VmHWM. */
  peakRssMb: number;
}

interface BareCommand {
  type: 'crawl';
  id: number;
  origin: string;
  maxPages: number;
  concurrency: number;
}

if (values.role === 'bare') await bareChild();
else await main();

/** The reference: CheerioCrawler as its documentation shows it, in a process of its own. */
async function bareChild(): Promise<void> {
  process.on('message', (message: BareCommand | { type: 'stop' }) => {
    if (message.type === 'stop') process.exit(0);
    void bareCrawl(message).then(
      (run) => process.send!({ type: 'result', id: message.id, run }),
      (err: Error) => process.send!({ type: 'error', id: message.id, message: err.message }),
    );
  });
  process.send!({ type: 'ready', pid: process.pid });
}

async function bareCrawl(command: BareCommand): Promise<Run> {
  const { CheerioCrawler, Configuration, Log, LogLevel } = await import('@crawlee/cheerio');
  let pages = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const crawler = new CheerioCrawler(
    {
      maxRequestsPerCrawl: command.maxPages,
      minConcurrency: command.concurrency,
      maxConcurrency: command.concurrency,
      maxRequestRetries: 0,
      log: new Log({ level: LogLevel.OFF }),
      async requestHandler({ $, enqueueLinks }) {
        pages++;
        void $('title').text();
        await enqueueLinks();
      },
    },
    new Configuration({ persistStorage: false, purgeOnStart: false }),
  );
  await crawler.run([`${command.origin}/`]);
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    side: 'bare',
    pages,
    ms: round(ms),
    pagesPerSecond: round((pages / ms) * 1000),
    cpuMs: round((cpu.user + cpu.system) / 1000),
    peakRssMb: round((readMemory(process.pid)?.hwmBytes ?? NaN) / MB),
  };
}

async function serviceCrawl(service: ServiceProcess, origin: string, maxPages: number): Promise<Run> {
  const headers = { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' };
  const memory = sampleMemory([service.pid], 20);
  const cpuBefore = readCpuTime(service.pid)!;
  const started = performance.now();
  const res = await fetch(`${service.origin}/v1/crawls`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ start_url: `${origin}/`, max_pages: maxPages, scrape_options: { formats: ['markdown'] } }),
  });
  const created = (await res.json()) as { id: string; detail?: string };
  if (!res.ok) throw new Error(`POST /v1/crawls answered ${res.status}: ${created.detail}`);
  let crawl: { status: string; pages_count: number; stop_reason: string };
  for (;;) {
    crawl = (await (await fetch(`${service.origin}/v1/crawls/${created.id}`, { headers })).json()) as typeof crawl;
    if (crawl.status !== 'in_progress') break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const ms = performance.now() - started;
  const cpu = cpuDelta(cpuBefore, readCpuTime(service.pid)!);
  const peak = memory.stop().peakRssBytes;
  return {
    side: 'service',
    pages: crawl.pages_count,
    ms: round(ms),
    pagesPerSecond: round((crawl.pages_count / ms) * 1000),
    cpuMs: round(cpu.totalMs),
    peakRssMb: round(peak / MB),
  };
}

async function main(): Promise<void> {
  const pages = Number(values.pages);
  const concurrency = Number(values.concurrency);
  const runs = Number(values.runs);
  const root = path.resolve(values.site);
  log(`site: ${pages} articles in ${root}`);
  await ensureSite(root, { articles: pages, seed: values.seed });
  const site = await forkTs<{ origin: string }>(path.join(BENCH_DIR, 'serve-site.ts'), { args: ['--root', root] });
  const bare = await forkTs<{ pid: number }>(fileURLToPath(import.meta.url), { args: ['--role', 'bare'] });
  const { service, firstBootRssBytes, removeDataDir } = await startRestartedService({
    databaseUrl: values['database-url'],
    ...(values['cpu-prof'] ? { cpuProfileDir: path.resolve(values['cpu-prof']) } : {}),
    env: {
      CRAWL_CONCURRENCY: String(concurrency),
      CRAWL_HOST_CONCURRENCY: String(concurrency),
      CRAWL_MAX_PAGES: String(Math.max(pages, 10_000)),
      BROWSER_ENABLED: 'false',
      WORKER_THREADS: '1',
      CRAWL_THREADS: '1',
      ...settingsOf(values.set),
    },
  });
  const origin = site.ready.origin;
  const results: Run[] = [];
  const startedAt = new Date().toISOString();
  const loadAtStart = os.loadavg()[0]!;
  try {
    const baselineRssMb = round((readMemory(service.pid)?.rssBytes ?? NaN) / MB);
    log('warm-up: 50 pages on each side (module loading, connections)');
    await runBare(bare, origin, 50, concurrency);
    await serviceCrawl(service, origin, 50);
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? (['bare', 'service'] as const) : (['service', 'bare'] as const);
      for (const side of order) {
        const run =
          side === 'bare'
            ? await runBare(bare, origin, pages, concurrency)
            : await serviceCrawl(service, origin, pages);
        log(
          `${side}: ${run.pages} pages in ${run.ms} ms = ${run.pagesPerSecond} pages/s, cpu ${run.cpuMs} ms, peak ${run.peakRssMb} MB`,
        );
        results.push(run);
      }
    }
    const summary = summarise(results, {
      pages,
      concurrency,
      runs,
      baselineRssMb,
      firstBootRssMb: round(firstBootRssBytes / MB),
    });
    const stem = values.out ?? `crawl-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
    await fs.mkdir(RESULTS_DIR, { recursive: true });
    await fs.writeFile(path.join(RESULTS_DIR, `${stem}.json`), `${JSON.stringify({ summary, results }, null, 2)}\n`);
    await fs.writeFile(path.join(RESULTS_DIR, `${stem}.md`), renderReport(summary, results, startedAt, loadAtStart));
    process.stdout.write(`${renderSummary(summary)}\n`);
    log(`results: bench/results/${stem}.json and .md`);
  } finally {
    await bare.stop({ type: 'stop' });
    await service.stop();
    await removeDataDir();
    await site.stop();
  }
}

function runBare(bare: ForkedChild<{ pid: number }>, origin: string, maxPages: number, concurrency: number) {
  return bare.request<{ run: Run }>({ type: 'crawl', origin, maxPages, concurrency }).then((r) => r.run);
}

interface Summary {
  pages: number;
  concurrency: number;
  runs: number;
  database: string;
  bare: SideSummary;
  service: SideSummary;
  /** Median service pages/s ÷ median bare pages/s (goal ≥ 0.7). */
  ratio: number;
  baselineRssMb: number;
  firstBootRssMb: number;
}

interface SideSummary {
  pagesPerSecond: number;
  cpuMsPerPage: number;
  peakRssMb: number;
}

function summarise(results: Run[], context: Omit<Summary, 'bare' | 'service' | 'ratio' | 'database'>): Summary {
  const side = (name: Run['side']): SideSummary => {
    const runs = results.filter((r) => r.side === name);
    return {
      pagesPerSecond: median(runs.map((r) => r.pagesPerSecond)),
      cpuMsPerPage: median(runs.map((r) => r.cpuMs / r.pages)),
      peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
    };
  };
  const bare = side('bare');
  const service = side('service');
  return {
    ...context,
    database: values['database-url'] ? 'postgres server' : 'embedded (PGlite)',
    bare,
    service,
    ratio: round(service.pagesPerSecond / bare.pagesPerSecond, 3),
  };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return round(sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** The summary to commit: what was measured (commit, command, machine), every run in order, the medians. */
function renderReport(s: Summary, runs: Run[], startedAt: string, loadAtStart: number): string {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'engines', 'plugins'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  }).trim();
  return [
    `# Crawl benchmark, ${startedAt}, commit ${commit}${dirty ? ' (with uncommitted changes)' : ''}`,
    '',
    `\`node --import tsx bench/crawl.bench.ts ${process.argv.slice(2).join(' ')}\``,
    '',
    `${os.availableParallelism()} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ` +
      `load average ${loadAtStart.toFixed(1)} at the start, ${s.database}.`,
    '',
    '| run | side | pages | time | pages/s | CPU ms per page | peak RSS |',
    '|---:|---|---:|---:|---:|---:|---:|',
    ...runs.map(
      (r, i) =>
        `| ${Math.floor(i / 2) + 1} | ${r.side === 'bare' ? 'bare CheerioCrawler' : 'service'} | ${r.pages} | ${round(r.ms / 1000, 1)} s | ${r.pagesPerSecond} | ${round(r.cpuMs / r.pages, 2)} | ${r.peakRssMb} MB |`,
    ),
    '',
    renderSummary(s),
    '',
  ].join('\n');
}

function renderSummary(s: Summary): string {
  return [
    `| side | pages/s (median of ${s.runs}) | CPU ms per page | peak RSS |`,
    '|---|---|---|---|',
    `| bare CheerioCrawler | ${s.bare.pagesPerSecond} | ${s.bare.cpuMsPerPage} | ${s.bare.peakRssMb} MB |`,
    `| service (POST /v1/crawls, ${s.database}) | ${s.service.pagesPerSecond} | ${s.service.cpuMsPerPage} | ${s.service.peakRssMb} MB (idle ${s.baselineRssMb} MB) |`,
    '',
    `${s.pages} pages at concurrency ${s.concurrency}: the service crawls at ${round(s.ratio * 100, 1)} % of the bare crawler's rate (goal ≥ 70 %).`,
  ].join('\n');
}
