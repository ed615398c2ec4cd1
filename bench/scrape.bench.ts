/**
 * Scrape benchmark (issue 3, item 6): the service's POST /v1/scrapes (markdown) against a bare
 * reference loop doing the same fetch and conversion, on the generated site, at several
 * concurrencies. Run by hand, never by `npm test`:
 *
 *   node --import tsx bench/scrape.bench.ts --pages 2000 --concurrency 1,8,32
 *
 * Options: --pages N (site articles, default 2000) --warmup N (default 200) --requests N (measured
 * pages per side and concurrency, default pages − warmup) --rounds N (interleaved slices, default 4) --seed S --gzip --database-url postgres://... [--api-key K]
 * --role all|api (the service's role: `api` runs no job threads, as a split deployment's API process)
 * --only reference|service --profile (CPU profiles of both sides; slower, for finding hot spots)
 * --set NAME=VALUE (repeatable: a setting of the measured service, e.g. HEAP_GROWTH_PERCENT=0)
 * --verify N (pages compared byte for byte, default 20) --out NAME (results file stem).
 * Writes bench/results/NAME.json (git-ignored) and NAME.md. See docs/benchmarks.md.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { forkTs } from './lib/child-process.js';
import { summariseProfileDir } from './lib/measure/cpu-profile.js';
import { readMemory } from './lib/measure/proc-stats.js';
import { round } from './lib/measure/stats.js';
import { BENCH_DIR, DEFAULT_SITE_DIR, RESULTS_DIR } from './lib/paths.js';
import { loadAverage, type PhaseRecord } from './lib/scrape/phase-accounting.js';
import {
  type BenchSide,
  compareMarkdown,
  measureInterleaved,
  referenceSide,
  serviceSide,
} from './lib/scrape/scrape-phases.js';
import { compare, renderReport, type ScrapeBenchResult } from './lib/scrape/scrape-report.js';
import { type ServiceProcess, startRestartedService } from './lib/service-process.js';
import { ensureSite } from './lib/site/site-generator.js';
import { settingsOf } from './lib/settings-args.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '4' },
    requests: { type: 'string' },
    concurrency: { type: 'string', default: '1,8,32' },
    seed: { type: 'string', default: '1' },
    site: { type: 'string', default: DEFAULT_SITE_DIR },
    gzip: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
    role: { type: 'string', default: 'all' },
    'api-key': { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    verify: { type: 'string', default: '20' },
    out: { type: 'string' },
    set: { type: 'string', multiple: true },
  },
});
/** `--set NAME=VALUE` (repeatable): a service setting for the measured service, e.g. HEAP_GROWTH_PERCENT=60. */
const settings = settingsOf(values.set);
const pages = Number(values.pages);
const warmup = Number(values.warmup);
const requests = Number(values.requests ?? pages - warmup);
const concurrency = values.concurrency.split(',').map(Number);
const rounds = Number(values.rounds);
if (requests + warmup > pages || requests < 1) {
  throw new Error(
    `--requests (${requests}) + --warmup (${warmup}) must fit in --pages (${pages}): every page once per phase`,
  );
}
const wanted = { reference: values.only !== 'service', service: values.only !== 'reference' };
const role = parseRole(values.role);
const startedAt = new Date().toISOString();
const stem = values.out ?? `scrape-${startedAt.slice(0, 19).replace(/[:T]/g, '-')}`;
const profileRoot = values.profile ? await fs.mkdtemp(path.join(os.tmpdir(), 'gleaner-bench-prof-')) : null;
const log = (line: string) => process.stderr.write(`${line}\n`);

log(`site: ${pages} articles in ${values.site}`);
const manifest = await ensureSite(path.resolve(values.site), { articles: pages, seed: values.seed });
const site = await forkTs<{ origin: string; pid: number }>(path.join(BENCH_DIR, 'serve-site.ts'), {
  args: ['--root', path.resolve(values.site), ...(values.gzip ? ['--gzip'] : [])],
});
const urls = manifest.articlePaths.map((p) => `${site.ready.origin}${p}`);
const measured = urls.slice(0, requests);
const warm = urls.slice(requests, requests + warmup);

const reference = wanted.reference
  ? await forkTs<{ pid: number }>(path.join(BENCH_DIR, 'lib', 'scrape', 'reference-child.ts'), {
      nodeFlags: profileRoot ? ['--cpu-prof', '--cpu-prof-dir', path.join(profileRoot, 'reference')] : [],
    })
  : null;
let service: ServiceProcess | null = null;
let removeDataDir = async () => {};
const phases: PhaseRecord[] = [];
const sides: BenchSide[] = [];
const loadAtStart = loadAverage();
const result: Partial<ScrapeBenchResult> = {};
try {
  if (wanted.service) {
    log('starting the service (first boot, then a restart on the same DATA_DIR)');
    const started = await startRestartedService({
      ...(values['database-url'] ? { databaseUrl: values['database-url'] } : {}),
      role,
      env: settings,
      ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
      ...(profileRoot ? { cpuProfileDir: path.join(profileRoot, 'service') } : {}),
    });
    service = started.service;
    removeDataDir = started.removeDataDir;
    result.serviceFirstBootRssMiB = round(started.firstBootRssBytes / 1048576, 1);
    result.serviceIdleRssMiB = round((readMemory(service.pid)?.rssBytes ?? 0) / 1048576, 1);
    if (reference) {
      result.markdownCheck = await compareMarkdown(service, reference, warm.slice(0, Number(values.verify)));
      log(`markdown check: ${result.markdownCheck.identical}/${result.markdownCheck.pages} identical`);
    }
  }
  sides.push(...(reference ? [referenceSide(reference)] : []), ...(service ? [serviceSide(service)] : []));
  for (const c of concurrency) {
    const plan = { warmup: warm, measured, concurrency: c, rounds, sitePid: site.ready.pid };
    for (const phase of await measureInterleaved(sides, plan)) phases.push(logged(phase));
  }
} finally {
  for (const side of sides) await side.close?.();
  await reference?.stop({ type: 'stop' });
  if (service) {
    const code = await service.stop();
    if (code !== 0) log(`service exited with ${code}:\n${service.output()}`);
  }
  await removeDataDir();
  await site.stop();
}

function logged(phase: PhaseRecord): PhaseRecord {
  log(
    `${phase.side.padEnd(9)} c=${String(phase.concurrency).padStart(2)}: ${phase.pagesPerSecond} pages/s, ` +
      `median ${phase.latencyMs.median} ms, p95 ${phase.latencyMs.p95} ms, CPU ${phase.cpuMsPerPage} ms/page, ` +
      `peak RSS ${phase.peakRssMiB} MiB, failures ${phase.failures}${phase.firstFailure ? ` (${phase.firstFailure})` : ''}`,
  );
  return phase;
}

const cpus = os.cpus();
const report: ScrapeBenchResult = {
  startedAt,
  command: `node --import tsx bench/scrape.bench.ts ${process.argv.slice(2).join(' ')}`.trim(),
  machine: {
    cpus: os.availableParallelism(),
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    kernel: os.release(),
  },
  settings: {
    pages,
    requests,
    warmup,
    rounds,
    concurrency,
    seed: values.seed,
    gzip: values.gzip,
    database: values['database-url'] ? 'server' : 'embedded',
    role,
    profiled: profileRoot !== null,
  },
  site: { articles: manifest.articlePaths.length, articleBytes: manifest.articleBytes },
  loadAverage: { start: loadAtStart, end: loadAverage() },
  ...result,
  phases,
  comparisons: compare(phases),
};
if (profileRoot) {
  report.profiles = [];
  for (const side of ['reference', 'service'] as const) {
    const dir = path.join(profileRoot, side);
    const exists = await fs.stat(dir).then(
      () => true,
      () => false,
    );
    if (exists) report.profiles.push({ side, summaries: await summariseProfileDir(dir) });
  }
  log(`CPU profiles kept in ${profileRoot} (open them in Chrome DevTools or speedscope)`);
}
await fs.mkdir(RESULTS_DIR, { recursive: true });
const markdown = renderReport(report);
await fs.writeFile(path.join(RESULTS_DIR, `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
await fs.writeFile(path.join(RESULTS_DIR, `${stem}.md`), markdown);
process.stdout.write(markdown);
log(`results: bench/results/${stem}.json and .md`);

function parseRole(role: string): 'all' | 'api' {
  if (role === 'all' || role === 'api') return role;
  throw new Error(`--role must be all or api (got ${role})`);
}
