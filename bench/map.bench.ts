/**
 * Map benchmark (issue 6, item 5): POST /v1/maps of a site whose sitemaps list 100,000 URLs,
 * then every cursor page, against the real service in its own process. Measures the time to
 * the first response, the time to the last page, and the service's RSS (sampled every 20 ms,
 * plus VmHWM). Two layouts: one plain urlset, and an index of two gzip parts. Run by hand:
 *
 *   node --import tsx bench/map.bench.ts --urls 100000 --runs 3
 *
 * Options: --urls N (default 100000) --runs N per layout (default 3) --database-url postgres://...
 * --out NAME (results file stem). Writes bench/results/NAME.json (git-ignored) and NAME.md.
 * See docs/benchmarks.md, "Maps".
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { cpuDelta, readCpuTime, readMemory, sampleMemory } from './lib/measure/proc-stats.js';
import { round } from './lib/measure/stats.js';
import { RESULTS_DIR } from './lib/paths.js';
import { startRestartedService, type ServiceProcess } from './lib/service-process.js';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '3' },
    'database-url': { type: 'string' },
    out: { type: 'string' },
  },
});
const URLS = Number(values.urls);
const RUNS = Number(values.runs);
const MB = 1024 * 1024;
const log = (line: string) => process.stderr.write(`${line}\n`);

type Layout = 'urlset' | 'gzip-index';

interface Run {
  layout: Layout;
  firstResponseMs: number;
  allPagesMs: number;
  /** CPU time the service used for the whole map (all threads): what the map costs whatever the machine's load. */
  serviceCpuMs: number;
  responses: number;
  urls: number;
  largestResponseBytes: number;
  baselineRssMb: number;
  peakRssMb: number;
}

/** Realistic product URLs (~90 characters): categories, slugs, ids. */
function siteUrls(origin: string, count: number): string[] {
  const words = ['blue', 'linen', 'summer', 'classic', 'oak', 'travel', 'steel', 'garden', 'wool', 'mini'];
  return Array.from({ length: count }, (_, i) => {
    const slug = `${words[i % 10]}-${words[(i * 7) % 10]}-${words[(i * 3) % 10]}`;
    return `${origin}/shop/category-${i % 97}/products/${slug}-item-${i}?variant=${i % 5}`;
  });
}

const urlset = (urls: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
    .map((u) => `<url><loc>${u.replace(/&/g, '&amp;')}</loc><lastmod>2024-05-01</lastmod></url>`)
    .join('\n')}\n</urlset>\n`;
const index = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((l) => `<sitemap><loc>${l}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;

/** One origin per layout; the home page links to a few pages so link discovery runs too. */
async function startSite(layout: Layout): Promise<{ origin: string; close(): Promise<void> }> {
  const files = new Map<string, { body: Buffer; type: string }>();
  const product = { body: Buffer.from('<!doctype html><title>Product</title><a href="/">Shop</a>'), type: 'text/html' };
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files.get(pathname) ?? (pathname.startsWith('/shop/') ? product : undefined);
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) }).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urls = siteUrls(origin, URLS);
  const links = urls.slice(0, 20).map((u) => `<a href="${u.replace(/&/g, '&amp;')}">product</a>`);
  files.set('/', { body: Buffer.from(`<!doctype html><title>Shop</title>${links.join('')}`), type: 'text/html' });
  if (layout === 'urlset') {
    files.set('/sitemap.xml', { body: Buffer.from(urlset(urls)), type: 'application/xml' });
  } else {
    const half = Math.ceil(urls.length / 2);
    files.set('/sitemap.xml', {
      body: Buffer.from(index([`${origin}/part-1.xml.gz`, `${origin}/part-2.xml.gz`])),
      type: 'application/xml',
    });
    files.set('/part-1.xml.gz', { body: gzipSync(urlset(urls.slice(0, half))), type: 'application/gzip' });
    files.set('/part-2.xml.gz', { body: gzipSync(urlset(urls.slice(half))), type: 'application/gzip' });
  }
  const sizes = [...files.entries()].map(([p, f]) => `${p} ${round(f.body.length / MB)} MiB`).join(', ');
  log(`${layout}: ${origin} (${sizes})`);
  return { origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Waits until the service's threads have settled (worker threads load their modules after /readyz
 * answers), so the first measured map does not pay for them: < 100 ms of CPU per second, 60 s at most.
 */
async function waitIdle(service: ServiceProcess): Promise<void> {
  const until = Date.now() + 60_000;
  let before = readCpuTime(service.pid)!;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = readCpuTime(service.pid)!;
    if (cpuDelta(before, now).totalMs < 100) return;
    before = now;
  }
  log('the service did not settle within 60 s; measuring anyway');
}

async function post(service: ServiceProcess, body: unknown): Promise<{ bytes: number; json: Record<string, unknown> }> {
  const res = await fetch(`${service.origin}/v1/maps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const raw = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`POST /v1/maps → ${res.status}: ${raw.toString('utf8').slice(0, 500)}`);
  return { bytes: raw.length, json: JSON.parse(raw.toString('utf8')) as Record<string, unknown> };
}

async function measure(service: ServiceProcess, layout: Layout, origin: string): Promise<Run> {
  const baseline = readMemory(service.pid)?.rssBytes ?? NaN;
  const sampler = sampleMemory([service.pid], 20);
  const cpuBefore = readCpuTime(service.pid)!;
  const started = performance.now();
  let page = await post(service, { url: `${origin}/` });
  const firstResponseMs = performance.now() - started;
  let responses = 1;
  let urls = (page.json.urls as string[]).length;
  let largest = page.bytes;
  while (typeof page.json.cursor === 'string') {
    page = await post(service, { url: `${origin}/`, cursor: page.json.cursor });
    responses++;
    urls += (page.json.urls as string[]).length;
    largest = Math.max(largest, page.bytes);
  }
  const allPagesMs = performance.now() - started;
  const serviceCpuMs = cpuDelta(cpuBefore, readCpuTime(service.pid)!).totalMs;
  const { peakRssBytes } = sampler.stop();
  if (urls < URLS)
    throw new Error(`${layout}: expected at least ${URLS} URLs, got ${urls} (${String(page.json.warning)})`);
  return {
    layout,
    firstResponseMs: round(firstResponseMs, 0),
    allPagesMs: round(allPagesMs, 0),
    serviceCpuMs: round(serviceCpuMs, 0),
    responses,
    urls,
    largestResponseBytes: largest,
    baselineRssMb: round(baseline / MB, 0),
    peakRssMb: round(peakRssBytes / MB, 0),
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadBefore = loadAverage();

function report(runs: Run[], hwmMb: number): string {
  const rows = runs.map(
    (r) =>
      `| ${r.layout} | ${r.urls} | ${r.firstResponseMs} | ${r.allPagesMs} | ${r.serviceCpuMs} | ${r.responses} | ${round(r.largestResponseBytes / 1e6)} | ${r.baselineRssMb} → ${r.peakRssMb} |`,
  );
  return [
    `Map of a ${URLS}-URL sitemap (${new Date().toISOString()}, ${RUNS} runs per layout, one service process)`,
    '',
    '| layout | URLs | first response ms | all pages ms | service CPU ms | responses | largest response MB | service RSS MiB (before → peak) |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Service VmHWM at the end: ${hwmMb} MiB. Load average before → after: ${loadBefore} → ${loadAverage()} (${os.cpus().length} cores).`,
    '',
  ].join('\n');
}

const started = new Date().toISOString();
const stem = values.out ?? `map-${started.slice(0, 19).replace(/[:T]/g, '-')}`;
const { service, removeDataDir } = await startRestartedService({
  databaseUrl: values['database-url'],
  env: { MAP_MAX_URLS: String(URLS) },
});
const runs: Run[] = [];
try {
  await waitIdle(service);
  for (const layout of ['urlset', 'gzip-index'] as const) {
    const site = await startSite(layout);
    try {
      for (let i = 0; i < RUNS; i++) {
        const run = await measure(service, layout, site.origin);
        log(JSON.stringify(run));
        runs.push(run);
      }
    } finally {
      await site.close();
    }
  }
  const hwmMb = round((readMemory(service.pid)?.hwmBytes ?? NaN) / MB, 0);
  const markdown = report(runs, hwmMb);
  process.stdout.write(markdown);
  await fs.mkdir(RESULTS_DIR, { recursive: true });
  await fs.writeFile(
    path.join(RESULTS_DIR, `${stem}.json`),
    JSON.stringify({ started, urls: URLS, runs, hwmMb }, null, 2),
  );
  await fs.writeFile(path.join(RESULTS_DIR, `${stem}.md`), markdown);
} catch (err) {
  log(`--- service output ---\n${service.output()}`);
  throw err;
} finally {
  await service.stop();
  await removeDataDir();
}
