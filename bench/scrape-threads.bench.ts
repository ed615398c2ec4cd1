/**
 * Where a scrape's CPU goes, thread by thread: the real service (restarted on its DATA_DIR, as
 * the scrape benchmark runs it) scrapes `--requests` pages of the bench site at `--concurrency`
 * after `--warmup` pages, and each of its threads' CPU time (utime + stime from
 * /proc/<pid>/task/<tid>/stat) is divided by the pages. Threads are all named `node`, so they
 * are told apart by how busy they are: the main thread is the process id; of the others, the two
 * busiest are the conversion thread and PGlite's, at concurrency 1 in that order; at 32 they are
 * close enough to swap (a CPU profile gave them 27.6 and 25.4 s: the event loop converts too). The
 * rest are V8's helpers (the garbage collector's parallel work) and libuv's pool. No reference
 * side: the scrape benchmark compares with the bare loop.
 *
 * Also the process's peak resident size (VmHWM: boot, warm-up and the measured pages).
 *
 *   node --import tsx bench/scrape-threads.bench.ts --requests 800 --concurrency 1 [--set NAME=VALUE]
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { forkTs } from './lib/child-process.js';
import { BENCH_DIR, DEFAULT_SITE_DIR } from './lib/paths.js';
import { createScrapeClient, scrapeBody } from './lib/scrape/scrape-client.js';
import { startRestartedService } from './lib/service-process.js';
import { ensureSite } from './lib/site/site-generator.js';
import { settingsOf } from './lib/settings-args.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    warmup: { type: 'string', default: '200' },
    requests: { type: 'string', default: '800' },
    concurrency: { type: 'string', default: '1' },
    set: { type: 'string', multiple: true },
  },
});
const env = settingsOf(values.set);
const requests = Number(values.requests);
const warmup = Number(values.warmup);
const concurrency = Number(values.concurrency);
const manifest = await ensureSite(DEFAULT_SITE_DIR, { articles: Number(values.pages), seed: '1' });
const site = await forkTs<{ origin: string; pid: number }>(path.join(BENCH_DIR, 'serve-site.ts'), {
  args: ['--root', DEFAULT_SITE_DIR],
});
const urls = manifest.articlePaths.map((p) => `${site.ready.origin}${p}`);
const { service, removeDataDir } = await startRestartedService({ env });
const client = createScrapeClient(service.origin, service.apiKey, concurrency);

const TICK_MS = 10; // CLK_TCK is 100 on Linux
function threadTimes(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

async function run(list: string[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) await client.scrape(scrapeBody(list[next++]!));
    }),
  );
}

try {
  await run(urls.slice(requests, requests + warmup));
  const before = threadTimes(service.pid);
  const load = os.loadavg()[0]!;
  const started = performance.now();
  await run(urls.slice(0, requests));
  const seconds = (performance.now() - started) / 1000;
  const after = threadTimes(service.pid);
  const used = [...after].map(([tid, ms]) => ({ tid, ms: ms - (before.get(tid) ?? 0) }));
  const main = used.find((t) => t.tid === service.pid)!;
  const others = used.filter((t) => t.tid !== service.pid).sort((a, b) => b.ms - a.ms);
  const perPage = (ms: number) => (ms / requests).toFixed(2);
  const total = used.reduce((sum, t) => sum + t.ms, 0);
  const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${service.pid}/status`, 'utf8'))?.[1];
  const rows: [string, number][] = [
    ['main thread', main.ms],
    ['busiest other thread (conversion at concurrency 1)', others[0]?.ms ?? 0],
    ['second busiest (PGlite at concurrency 1)', others[1]?.ms ?? 0],
    ['the rest (V8 helpers, libuv pool, …)', others.slice(2).reduce((sum, t) => sum + t.ms, 0)],
    ['all threads', total],
  ];
  process.stdout.write(
    `${requests} pages at concurrency ${concurrency} after ${warmup} of warm-up: ${(requests / seconds).toFixed(1)} pages/s, load average ${load.toFixed(2)} at the start, peak RSS (VmHWM) ${(Number(hwm) / 1024).toFixed(0)} MiB\n` +
      `| thread | CPU ms per page |\n|---|---:|\n${rows.map(([name, ms]) => `| ${name} | ${perPage(ms)} |`).join('\n')}\n`,
  );
} finally {
  await client.close();
  await service.stop();
  await removeDataDir();
  await site.stop();
}
