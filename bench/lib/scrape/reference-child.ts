/**
 * The reference loop as a child process, so the benchmark measures its CPU and memory from /proc
 * exactly as it measures the service's. Driven over IPC by bench/scrape.bench.ts:
 *   {type: 'run', id, urls, concurrency}  → {type: 'result', id, phase, stages, bytes, cpu}
 *   {type: 'markdown', id, urls}          → {type: 'result', id, markdown: string[]}
 *   {type: 'stop'}                         → exits
 */
import { runFixedConcurrency } from '../measure/fixed-concurrency.js';
import { createReferenceScraper } from './reference-scraper.js';

type Command =
  | { type: 'run'; id: number; urls: string[]; concurrency: number }
  | { type: 'markdown'; id: number; urls: string[] }
  | { type: 'stop' };

const scraper = createReferenceScraper();

async function run(urls: string[], concurrency: number) {
  const stages: Record<string, number> = { fetch: 0 };
  let bytes = 0;
  const cpuBefore = process.cpuUsage();
  const phase = await runFixedConcurrency(urls, concurrency, async (url) => {
    const result = await scraper.scrape(url);
    stages.fetch! += result.fetchMs;
    for (const [stage, ms] of Object.entries(result.timings)) stages[stage] = (stages[stage] ?? 0) + ms;
    bytes += result.bytes;
  });
  const cpu = process.cpuUsage(cpuBefore);
  return { phase, stages, bytes, cpu: { userMs: cpu.user / 1000, systemMs: cpu.system / 1000 } };
}

/** One page at a time: the check should not grow the heap the measured phases start with. */
async function markdownOf(urls: string[]) {
  const markdown: string[] = [];
  for (const url of urls) markdown.push((await scraper.scrape(url)).markdown);
  return { markdown };
}

process.on('message', (message: Command) => {
  if (message.type === 'stop') {
    void scraper.close().then(() => process.exit(0));
    return;
  }
  const work = message.type === 'run' ? run(message.urls, message.concurrency) : markdownOf(message.urls);
  work.then(
    (result) => process.send!({ type: 'result', id: message.id, ...result }),
    (err: unknown) => process.send!({ type: 'error', id: message.id, message: (err as Error).stack ?? String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready', pid: process.pid });
