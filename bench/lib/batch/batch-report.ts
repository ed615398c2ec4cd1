import type { ProfileSummary } from '../measure/cpu-profile.js';
import { round } from '../measure/stats.js';
import type { RunRecord, ScrapePhase } from './batch-run.js';
import type { PhaseUse } from './phase-meter.js';

/** Goals of issue 5, item 5: batch items/s ≥ 80 % of single scrapes/s; accepted < 2 s; RSS flat in the batch size. */
export const GOALS = { throughputRatio: 0.8, acceptMs: 2000 } as const;

export interface BatchBenchResult {
  startedAt: string;
  command: string;
  commit: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; kernel: string; postgres: string };
  settings: {
    items: number[];
    workers: number[];
    workerThreads: number;
    workerConcurrency: number;
    scrapesPerPhase: number;
    warmupScrapes: number;
    warmupItems: string;
    repeat: number;
    pages: number;
    env: Record<string, string>;
  };
  runs: RunRecord[];
  profiles?: { process: string; summaries: ProfileSummary[] }[];
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const serviceCpu = (use: PhaseUse) => sum(use.processes.filter((p) => p.name !== 'site').map((p) => p.cpuMs));
const databaseCpu = (use: PhaseUse) => sum(Object.values(use.databaseCpuMs));
const meanScrapes = (r: RunRecord) => (r.scrapesBefore.pagesPerSecond + r.scrapesAfter.pagesPerSecond) / 2;
const pct = (ratio: number) => `${round(100 * ratio, 1)} %`;

/** Batch items/s ÷ the mean of the two single-scrape phases around it. */
export function throughputRatio(run: RunRecord): number {
  return run.batch.itemsPerSecond / meanScrapes(run);
}

/** CPU per item of the service processes and the database, batch and single scrapes. */
export function cpuPerItem(run: RunRecord) {
  const scrapeUse = [run.scrapesBefore, run.scrapesAfter];
  const scrapeRequests = sum(scrapeUse.map((s) => s.requests));
  const batchService = serviceCpu(run.batch.use) / run.items;
  const batchDatabase = databaseCpu(run.batch.use) / run.items;
  const scrapeService = sum(scrapeUse.map((s) => serviceCpu(s.use))) / scrapeRequests;
  const scrapeDatabase = sum(scrapeUse.map((s) => databaseCpu(s.use))) / scrapeRequests;
  return {
    batchService: round(batchService, 1),
    batchDatabase: round(batchDatabase, 1),
    scrapeService: round(scrapeService, 1),
    scrapeDatabase: round(scrapeDatabase, 1),
    /** Throughput ratio to expect once the cores are saturated: scrape CPU ÷ batch CPU (database included). */
    cpuBoundRatio: round((scrapeService + scrapeDatabase) / (batchService + batchDatabase), 3),
    batchOther: round(run.batch.use.otherCpuMs / run.items, 1),
  };
}

function runRow(r: RunRecord): string {
  const failed = r.batch.itemsFailed + r.scrapesBefore.failures + r.scrapesAfter.failures;
  const ratio = throughputRatio(r);
  const load = `${r.batch.use.loadAverage.start}–${r.batch.use.loadAverage.end}`;
  return `| ${r.workers} | ${r.items} | ${r.concurrency} | ${r.batch.acceptMs} | ${round(r.batch.completeMs / 1000, 1)} | ${r.batch.itemsPerSecond} | ${r.batch.steadyItemsPerSecond} | ${r.scrapesBefore.pagesPerSecond} / ${r.scrapesAfter.pagesPerSecond} | ${pct(ratio)}${ratio >= GOALS.throughputRatio ? '' : ' (missed)'} | ${failed} | ${load} |`;
}

function cpuRow(r: RunRecord): string {
  const c = cpuPerItem(r);
  const byProcess = r.batch.use.processes
    .filter((p) => p.name !== 'site')
    .map((p) => `${p.name} ${round(p.cpuMs / r.items, 1)}`)
    .join(', ');
  const db = Object.entries(r.batch.use.databaseCpuMs)
    .map(([app, ms]) => `${app} ${round(ms / r.items, 1)}`)
    .join(', ');
  return `| ${r.workers} | ${r.items} | ${c.batchService} (${byProcess}) | ${c.batchDatabase} (${db}) | ${c.scrapeService} | ${c.scrapeDatabase} | ${pct(c.cpuBoundRatio)} | ${c.batchOther} |`;
}

function rssRow(r: RunRecord): string {
  const cells = r.batch.use.processes
    .filter((p) => p.name !== 'site')
    .map((p) => `${p.name} ${r.idleRssMiB[p.name] ?? '?'} → ${p.peakRssMiB} (HWM ${p.hwmMiB})`)
    .join('; ');
  return `| ${r.workers} | ${r.items} | ${cells} | ${r.batch.use.servicePeakRssMiB} | ${scrapePeak(r.scrapesBefore)} |`;
}

function sessionsRow(r: RunRecord): string {
  const cell = (use: PhaseUse) => {
    const s = use.databaseSessions;
    return s ? `${s.active} / ${s.waitingForLock} / ${s.idleInTransaction}` : '–';
  };
  return `| ${r.workers} | ${r.items} | ${cell(r.batch.use)} | ${cell(r.scrapesBefore.use)} | ${cell(r.scrapesAfter.use)} |`;
}

function scrapePeak(s: ScrapePhase): number {
  return s.use.servicePeakRssMiB;
}

/** The Markdown summary written to bench/results/NAME.md. */
export function renderReport(result: BatchBenchResult): string {
  const { settings, machine } = result;
  const lines = [
    `# Batch benchmark, ${result.startedAt}`,
    '',
    `\`${result.command}\``,
    '',
    `Commit \`${result.commit}\`; ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, Linux ${machine.kernel}, ${machine.postgres}.`,
    `Site: ${settings.pages} article pages; each batch item a page under a query string (every page once, then again under the next).`,
    `Worker processes: ${settings.workerThreads} batch-runner thread(s) × WORKER_CONCURRENCY ${settings.workerConcurrency}; single scrapes at the same total concurrency, ${settings.scrapesPerPhase} before and ${settings.scrapesPerPhase} after each batch.`,
    `Fresh database and processes per run; warm-up ${settings.warmupScrapes} scrapes and a ${settings.warmupItems}-item batch. Extra settings: ${JSON.stringify(settings.env)}.`,
    '',
    '## Throughput',
    '',
    `| workers | items | conc. | accept ms | complete s | items/s | steady items/s (10–90 %) | single scrapes/s before / after | ratio (goal ≥ ${pct(GOALS.throughputRatio)}) | failures | load avg (batch) |`,
    '|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|',
    ...result.runs.map(runRow),
    '',
    '## CPU per item (ms, all threads)',
    '',
    '| workers | items | batch: service processes | batch: database backends | scrape: API | scrape: database | CPU-bound ratio | other processes during the batch |',
    '|---:|---:|---|---|---:|---:|---:|---:|',
    ...result.runs.map(cpuRow),
    '',
    'CPU-bound ratio: (scrape CPU per page) ÷ (batch CPU per item), database included: the throughput ratio to expect once the cores are saturated, whatever else runs on the machine.',
    '',
    '## Database sessions (mean over 1 s samples: active / waiting for a lock / idle in transaction)',
    '',
    '| workers | items | batch | scrapes before | scrapes after |',
    '|---:|---:|---|---|---|',
    ...result.runs.map(sessionsRow),
    '',
    '## Memory (MiB, VmRSS of each process, all threads and descendants)',
    '',
    '| workers | items | per process: idle → peak during the batch (VmHWM after it) | service sum, peak during the batch | service sum, peak during scrapes before |',
    '|---:|---:|---|---:|---:|',
    ...result.runs.map(rssRow),
    '',
  ];
  for (const p of result.profiles ?? []) lines.push(...profileSection(p.process, p.summaries), '');
  return `${lines.join('\n')}\n`;
}

/** The busiest threads of one process's profile: where its CPU went. */
function profileSection(name: string, summaries: readonly ProfileSummary[]): string[] {
  const busiest = [...summaries].sort((a, b) => b.busyMs - a.busyMs).slice(0, 2);
  const out = [`## CPU profile: ${name}`, ''];
  for (const s of busiest) {
    out.push(
      `Thread profile \`${s.file.split('/').pop()}\`: ${s.busyMs} ms busy.`,
      '',
      '| self time by package / directory | ms | % |',
      '|---|---:|---:|',
      ...s.byCategory.slice(0, 12).map((c) => `| ${c.name} | ${c.selfMs} | ${c.share} |`),
      '',
      '| self time charged to the deepest file of ours on the stack | ms | % |',
      '|---|---:|---:|',
      ...s.byOwnFile.slice(0, 15).map((f) => `| ${f.file} | ${f.ms} | ${f.share} |`),
      '',
      '| inclusive (synchronous stacks) | ms | % |',
      '|---|---:|---:|',
      ...s.inclusive.map((p) => `| ${p.label} | ${p.ms} | ${p.share} |`),
      '',
    );
  }
  return out;
}
