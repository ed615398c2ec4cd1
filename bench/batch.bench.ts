/**
 * Batch benchmark (issue 5, item 5): batches of up to 10,000 items against the bench site, run
 * by 1 and by 2 worker processes sharing a PostgreSQL server database with an API process
 * (`--role api` / `--role worker`), each batch bracketed by single scrapes (POST /v1/scrapes) at
 * the same concurrency on the same pages, so the throughput ratio is measured under the same
 * load. Run by hand, never by `npm test`:
 *
 *   node --import tsx bench/batch.bench.ts --items 1000,5000,10000 --workers 1,2
 *
 * Options: --items N,... (batch sizes, default 10000) --workers N,... (worker processes, default 1,2)
 * --worker-threads N (default 1) --worker-concurrency N (default 8) --scrapes N (single scrapes per
 * bracketing phase, default 1000) --warmup-scrapes N (100) --warmup-items N (100 per worker)
 * --repeat N (default 1) --pages N (site articles, default 2000) --seed S
 * --admin-database-url postgres://postgres@127.0.0.1:5432/postgres (a fresh database per run is
 * created there and dropped after) --set NAME=VALUE (more service settings, repeatable)
 * --profile (CPU profiles of every process, summarised in the report) --out NAME.
 * Writes bench/results/NAME.json (git-ignored) and NAME.md. See docs/benchmarks.md, "Batches".
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { forkTs } from './lib/child-process.js';
import { summariseProfileDir } from './lib/measure/cpu-profile.js';
import { round } from './lib/measure/stats.js';
import { BENCH_DIR, DEFAULT_SITE_DIR, REPO_ROOT, RESULTS_DIR } from './lib/paths.js';
import { type BatchBenchResult, renderReport } from './lib/batch/batch-report.js';
import { measureRun, type RunRecord } from './lib/batch/batch-run.js';
import { ensureSite } from './lib/site/site-generator.js';
import { settingsOf } from './lib/settings-args.js';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    workers: { type: 'string', default: '1,2' },
    'worker-threads': { type: 'string', default: '1' },
    'worker-concurrency': { type: 'string', default: '8' },
    scrapes: { type: 'string', default: '1000' },
    'warmup-scrapes': { type: 'string', default: '100' },
    'warmup-items': { type: 'string' },
    repeat: { type: 'string', default: '1' },
    pages: { type: 'string', default: '2000' },
    seed: { type: 'string', default: '1' },
    site: { type: 'string', default: DEFAULT_SITE_DIR },
    'admin-database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    set: { type: 'string', multiple: true, default: [] },
    profile: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const list = (value: string) => value.split(',').map(Number);
const items = list(values.items);
const workerCounts = list(values.workers);
const repeat = Number(values.repeat);
const env = settingsOf(values.set);
const startedAt = new Date().toISOString();
const stem = values.out ?? `batch-${startedAt.slice(0, 19).replace(/[:T]/g, '-')}`;
const profileRoot = values.profile ? await fs.mkdtemp(path.join(os.tmpdir(), 'gleaner-batch-prof-')) : null;
const log = (line: string) => process.stderr.write(`${line}\n`);

const manifest = await ensureSite(path.resolve(values.site), { articles: Number(values.pages), seed: values.seed });
const site = await forkTs<{ origin: string; pid: number }>(path.join(BENCH_DIR, 'serve-site.ts'), {
  args: ['--root', path.resolve(values.site)],
});
const pages = manifest.articlePaths.map((p) => `${site.ready.origin}${p}`);

/**
 * The order of the runs: sizes in turn, and within each size the worker counts alternate
 * (1, 2 then 2, 1), so a slow stretch of the shared machine does not always hit the same count.
 */
function schedule(): { workers: number; items: number; index: number }[] {
  const out: { workers: number; items: number; index: number }[] = [];
  let flip = false;
  for (let r = 0; r < repeat; r++) {
    for (const n of items) {
      for (const w of flip ? [...workerCounts].reverse() : workerCounts)
        out.push({ workers: w, items: n, index: out.length });
      flip = !flip;
    }
  }
  return out;
}

const runs: RunRecord[] = [];
const profiles: NonNullable<BatchBenchResult['profiles']> = [];
try {
  for (const step of schedule()) {
    log(
      `run ${step.index + 1}: ${step.items} items, ${step.workers} worker process(es); load ${os.loadavg()[0]?.toFixed(1)}`,
    );
    const profileDir = profileRoot ? path.join(profileRoot, `run-${step.index + 1}`) : null;
    runs.push(
      await measureRun({
        workers: step.workers,
        items: step.items,
        workerThreads: Number(values['worker-threads']),
        workerConcurrency: Number(values['worker-concurrency']),
        pages,
        scrapes: Number(values.scrapes),
        warmupScrapes: Number(values['warmup-scrapes']),
        warmupItems: Number(values['warmup-items'] ?? 100 * step.workers),
        adminDatabaseUrl: values['admin-database-url'],
        sitePid: site.ready.pid,
        profileDir,
        env,
        log,
      }),
    );
    if (profileDir) {
      for (const name of await fs.readdir(profileDir)) {
        profiles.push({
          process: `run ${step.index + 1} ${name}`,
          summaries: await summariseProfileDir(path.join(profileDir, name)),
        });
      }
    }
  }
} finally {
  await site.stop();
}

const report: BatchBenchResult = {
  startedAt,
  command: `node --import tsx bench/batch.bench.ts ${process.argv.slice(2).join(' ')}`.trim(),
  commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim(),
  machine: {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    kernel: os.release(),
    postgres: await serverVersion(values['admin-database-url']),
  },
  settings: {
    items,
    workers: workerCounts,
    workerThreads: Number(values['worker-threads']),
    workerConcurrency: Number(values['worker-concurrency']),
    scrapesPerPhase: Number(values.scrapes),
    warmupScrapes: Number(values['warmup-scrapes']),
    warmupItems: values['warmup-items'] ?? '100 per worker process',
    repeat,
    pages: pages.length,
    env,
  },
  runs,
  ...(profiles.length > 0 ? { profiles } : {}),
};
const markdown = renderReport(report);
await fs.mkdir(RESULTS_DIR, { recursive: true });
await fs.writeFile(path.join(RESULTS_DIR, `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
await fs.writeFile(path.join(RESULTS_DIR, `${stem}.md`), markdown);
process.stdout.write(markdown);
log(`results: bench/results/${stem}.json and .md${profileRoot ? `; CPU profiles kept in ${profileRoot}` : ''}`);

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ server_version: string }>('show server_version');
    return `PostgreSQL ${rows[0]?.server_version ?? '?'}`;
  } finally {
    await client.end();
  }
}
