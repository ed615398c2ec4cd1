import fs from 'node:fs/promises';
import path from 'node:path';
import { runFixedConcurrency } from '../measure/fixed-concurrency.js';
import { cpuDelta, readTreeCpuTime } from '../measure/proc-stats.js';
import { round } from '../measure/stats.js';
import { createScrapeClient, scrapeBody } from '../scrape/scrape-client.js';
import { createDataDir } from '../service-process.js';
import { createBenchDatabase } from './bench-database.js';
import { type BatchRun, rateBetween, runBatch } from './batch-client.js';
import { type MeteredProcess, meterPhase, type PhaseUse } from './phase-meter.js';
import { type RoleProcess, readApiKey, startRoleProcess } from './role-process.js';

export interface RunPlan {
  workers: number;
  items: number;
  /** Batch runner threads per worker process and items each runs at once. */
  workerThreads: number;
  workerConcurrency: number;
  /** Article URLs of the bench site (absolute). */
  pages: readonly string[];
  /** Single scrapes in each of the two phases around the batch. */
  scrapes: number;
  warmupScrapes: number;
  warmupItems: number;
  adminDatabaseUrl: string;
  sitePid: number;
  /** Keep each process's CPU profiles here (one directory per process). */
  profileDir: string | null;
  env: Record<string, string>;
  log(line: string): void;
}

export interface ScrapePhase {
  requests: number;
  concurrency: number;
  failures: number;
  firstFailure?: string;
  pagesPerSecond: number;
  use: PhaseUse;
}

export interface RunRecord {
  workers: number;
  items: number;
  /** Items in flight at most: workers × threads × concurrency (host concurrency is set above it). */
  concurrency: number;
  /** Seconds from the processes' start until every one was ready and idle. */
  bootMs: number;
  /** VmRSS of each process once booted, warmed up and idle, before the measured phases. */
  idleRssMiB: Record<string, number>;
  scrapesBefore: ScrapePhase;
  batch: BatchRun & { steadyItemsPerSecond: number; use: PhaseUse };
  scrapesAfter: ScrapePhase;
}

/** The i-th batch URL: every page once, then every page again under the next query string. */
export function batchUrls(pages: readonly string[], count: number, tag: string): string[] {
  return Array.from({ length: count }, (_, i) => `${pages[i % pages.length]}?${tag}=${Math.floor(i / pages.length)}`);
}

/**
 * One measured run on a fresh database and fresh processes (so peaks are comparable between
 * runs): the API and `workers` worker processes boot and warm up; then single scrapes at the
 * batch's concurrency, the batch, and single scrapes again, each phase accounted. The two scrape
 * phases bracket the batch, so a change in the machine's load during the run hits both sides.
 */
export async function measureRun(plan: RunPlan): Promise<RunRecord> {
  const db = await createBenchDatabase(plan.adminDatabaseUrl);
  const dataDir = await createDataDir();
  const started: RoleProcess[] = [];
  try {
    const bootStarted = performance.now();
    const { api, workers } = await boot(plan, db.url, dataDir, started);
    const apiKey = await readApiKey(dataDir);
    await waitIdle(
      started.map((p) => p.pid),
      plan.log,
    );
    const bootMs = round(performance.now() - bootStarted, 0);
    const concurrency = plan.workers * plan.workerThreads * plan.workerConcurrency;
    const metered: MeteredProcess[] = [
      { name: 'api', pid: api.pid },
      ...workers.map((w, i) => ({ name: `worker-${i + 1}`, pid: w.pid })),
      { name: 'site', pid: plan.sitePid },
    ];
    const service = new Set(metered.filter((p) => p.name !== 'site').map((p) => p.name));
    const meter = <T>(work: () => Promise<T>) => meterPhase(metered, service, db.backends, work);
    const scrapes = (urls: string[]) => scrapePhase(api.origin, apiKey, urls, concurrency, meter);

    plan.log(`  warm-up: ${plan.warmupScrapes} scrapes, a ${plan.warmupItems}-item batch`);
    await scrapes(batchUrls(plan.pages, plan.warmupScrapes, 'warm'));
    await runBatch(api.origin, apiKey, batchUrls(plan.pages, plan.warmupItems, 'warmbatch'));
    const idleRssMiB = Object.fromEntries(
      (await meter(() => new Promise((resolve) => setTimeout(resolve, 1000)))).use.processes.map((p) => [
        p.name,
        p.endRssMiB,
      ]),
    );
    const half = Math.floor(plan.pages.length / 2);
    const scrapesBefore = await scrapes(batchUrls(plan.pages.slice(0, half), plan.scrapes, 's'));
    plan.log(`  scrapes before: ${scrapesBefore.pagesPerSecond}/s at c=${concurrency}`);
    const measured = await meter(() => runBatch(api.origin, apiKey, batchUrls(plan.pages, plan.items, 'v')));
    const batch = {
      ...measured.result,
      steadyItemsPerSecond: rateBetween(measured.result, 0.1, 0.9),
      use: measured.use,
    };
    plan.log(
      `  batch: accepted in ${batch.acceptMs} ms, ${batch.itemsPerSecond} items/s (${batch.itemsFailed} failed)`,
    );
    const scrapesAfter = await scrapes(batchUrls(plan.pages.slice(half), plan.scrapes, 's'));
    plan.log(`  scrapes after: ${scrapesAfter.pagesPerSecond}/s`);
    return {
      workers: plan.workers,
      items: plan.items,
      concurrency,
      bootMs,
      idleRssMiB,
      scrapesBefore,
      batch,
      scrapesAfter,
    };
  } catch (err) {
    for (const p of started) plan.log(`--- ${p.role} ${p.pid} output ---\n${p.output()}`);
    throw err;
  } finally {
    for (const p of [...started].reverse()) {
      const code = await p.stop();
      if (code !== 0) plan.log(`${p.role} ${p.pid} exited with ${code}:\n${p.output().slice(-4000)}`);
    }
    await db.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** The API first (it migrates the new database and creates the key), then the workers together. */
async function boot(
  plan: RunPlan,
  databaseUrl: string,
  dataDir: string,
  started: RoleProcess[],
): Promise<{ api: RoleProcess; workers: RoleProcess[] }> {
  const total = plan.workers * plan.workerThreads * plan.workerConcurrency;
  const profile = (name: string) => (plan.profileDir ? { cpuProfileDir: path.join(plan.profileDir, name) } : {});
  const api = await startRoleProcess({ role: 'api', dataDir, databaseUrl, env: plan.env, ...profile('api') });
  started.push(api);
  const env = {
    WORKER_THREADS: String(plan.workerThreads),
    WORKER_CONCURRENCY: String(plan.workerConcurrency),
    // The bench site is one host: politeness must not be what limits the run.
    WORKER_HOST_CONCURRENCY: String(total * 2),
    ...plan.env,
  };
  const workers = await Promise.all(
    Array.from({ length: plan.workers }, async (_, i) => {
      const worker = await startRoleProcess({
        role: 'worker',
        dataDir,
        databaseUrl,
        env,
        ...profile(`worker-${i + 1}`),
      });
      started.push(worker);
      return worker;
    }),
  );
  return { api, workers };
}

async function scrapePhase(
  origin: string,
  apiKey: string,
  urls: string[],
  concurrency: number,
  meter: <T>(work: () => Promise<T>) => Promise<{ result: T; use: PhaseUse }>,
): Promise<ScrapePhase> {
  const client = createScrapeClient(origin, apiKey, concurrency);
  const bodies = urls.map(scrapeBody);
  try {
    const { result, use } = await meter(() =>
      runFixedConcurrency(bodies, concurrency, async (body) => void (await client.scrape(body))),
    );
    return {
      requests: urls.length,
      concurrency,
      failures: result.failures.length,
      ...(result.failures[0] ? { firstFailure: result.failures[0].message } : {}),
      pagesPerSecond: round((1000 * urls.length) / result.wallMs, 2),
      use,
    };
  } finally {
    await client.close();
  }
}

/**
 * Waits until the processes' threads have settled (worker threads and conversion threads load
 * their modules after the ready line): under 150 ms of CPU per second together, 90 s at most.
 */
async function waitIdle(pids: number[], log: (line: string) => void): Promise<void> {
  const until = Date.now() + 90_000;
  let before = readTreeCpuTime(pids);
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = readTreeCpuTime(pids);
    if (cpuDelta(before, now).totalMs < 150) return;
    before = now;
  }
  log('  the processes did not settle within 90 s; measuring anyway');
}
