/**
 * The fetch, measured alone (issue 17, item 4): CPU per page of the http engine (got-scraping
 * behind the outbound guard, browser-like headers, decoding) against bare clients fetching the
 * same pages of the bench site: got-scraping with no options, Node's fetch (undici) and
 * node:http with a keep-alive agent. The site runs in a child process; CPU is this process's
 * (`process.cpuUsage`, all threads), per page, best of the rounds; sides alternate in rounds.
 *
 *   node --import tsx bench/fetch-clients.bench.ts --pages 2000 --requests 1000 --concurrency 8 --rounds 3
 *
 * Writes bench/results/fetch-clients.md.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gotScraping } from 'got-scraping';
import { createHttpEngine } from '../engines/http/http.engine.js';
import { createOutboundGuard } from '../src/engine/outbound-guard.js';
import { forkTs } from './lib/child-process.js';
import { BENCH_DIR, DEFAULT_SITE_DIR, RESULTS_DIR } from './lib/paths.js';
import { ensureSite } from './lib/site/site-generator.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    requests: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    site: { type: 'string', default: DEFAULT_SITE_DIR },
    out: { type: 'string', default: 'fetch-clients' },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const rounds = Number(values.rounds);

const manifest = await ensureSite(path.resolve(values.site), { articles: Number(values.pages), seed: '1' });
const site = await forkTs<{ origin: string }>(path.join(BENCH_DIR, 'serve-site.ts'), {
  args: ['--root', path.resolve(values.site)],
});
const urls = manifest.articlePaths.slice(0, requests).map((p) => `${site.ready.origin}${p}`);

const guard = createOutboundGuard({ allowPrivate: true, denyDomains: [] });
const engine = createHttpEngine({ guard, connectTimeoutMs: 5000, maxResponseBytes: 10 << 20 });
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const signal = new AbortController().signal;

type Client = (url: string) => Promise<number>;
const clients: Record<string, Client> = {
  'http engine (got-scraping, guard, headers, decoding)': async (url) => {
    const page = await engine.fetchPage({ url, timeoutMs: 10_000, headers: {}, proxy: null }, signal);
    return page.text?.length ?? 0;
  },
  'got-scraping, no options': async (url) => (await gotScraping({ url })).body.length,
  'fetch (undici)': async (url) => (await (await fetch(url)).text()).length,
  'node:http, keep-alive agent': (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8').length));
          res.on('error', reject);
        })
        .on('error', reject);
    }),
};

async function runOnce(client: Client): Promise<{ cpuMs: number; wallMs: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) {
        const url = urls[next++]!;
        if ((await client(url)) === 0) throw new Error(`empty body for ${url}`);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
}

const best = new Map<string, { cpuMs: number; wallMs: number }>();
for (const client of Object.values(clients)) await runOnce(client); // warm-up: modules, sockets, JIT
for (let round = 1; round <= rounds; round++) {
  for (const [name, client] of Object.entries(clients)) {
    const result = await runOnce(client);
    const prior = best.get(name);
    if (!prior || result.cpuMs < prior.cpuMs) best.set(name, result);
    process.stderr.write(`round ${round} ${name}: ${(result.cpuMs / urls.length).toFixed(3)} CPU ms/page\n`);
  }
}
await engine.stop?.();
agent.destroy();
await site.stop();

const rows = [...best].map(
  ([name, r]) => `| ${name} | ${(r.cpuMs / urls.length).toFixed(3)} | ${Math.round((urls.length / r.wallMs) * 1000)} |`,
);
const report = [
  `Run ${new Date().toISOString()}: \`node --import tsx bench/fetch-clients.bench.ts ${process.argv.slice(2).join(' ')}\``,
  '',
  `${urls.length} pages (mean ${Math.round(manifest.articleBytes.mean / 1024)} KiB), concurrency ${concurrency}, best of ${rounds} rounds; CPU of the client process only (the site runs in a child process).`,
  '',
  '| client | CPU ms per page | pages/s |',
  '|---|---:|---:|',
  ...rows,
  '',
].join('\n');
await fs.mkdir(RESULTS_DIR, { recursive: true });
await fs.writeFile(path.join(RESULTS_DIR, `${values.out}.md`), report);
process.stdout.write(report);
