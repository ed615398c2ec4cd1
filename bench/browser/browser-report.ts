import type { LatencySummary } from '../lib/measure/stats.js';
import { round } from '../lib/measure/stats.js';

export interface BrowserPhase {
  side: 'bare' | 'engine';
  concurrency: number;
  round: number;
  pages: number;
  failures: number;
  firstFailure: string | null;
  pagesPerSecond: number;
  latency: LatencySummary;
  /** Peak summed RSS of this process and its browser while the phase ran, MB. */
  peakRssMb: number;
  /** Peak summed PSS (shared pages divided among processes), MB. */
  peakPssMb: number;
  /** CPU of this process and its browser per page (all processes, from /proc), ms. */
  cpuMsPerPage: number;
}

export interface BrowserBenchResult {
  date: string;
  machine: { cpus: number; model: string; memoryGb: number };
  loadAverage: number[];
  chromium: string;
  options: {
    concurrencies: number[];
    requests: number;
    warmup: number;
    rounds: number;
    poolSize: number;
    pagesPerPhase: number;
  };
  phases: BrowserPhase[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** One markdown table: per concurrency, each side's best-of-rounds median figures and the ratio. */
export function renderBrowserReport(result: BrowserBenchResult): string {
  const rows = result.options.concurrencies.map((c) => {
    const side = (name: BrowserPhase['side']) => result.phases.filter((p) => p.side === name && p.concurrency === c);
    const bare = side('bare');
    const engine = side('engine');
    const throughput = (phases: BrowserPhase[]) => median(phases.map((p) => p.pagesPerSecond));
    const latency = (phases: BrowserPhase[]) => median(phases.map((p) => p.latency.median));
    const rss = (phases: BrowserPhase[]) => Math.max(...phases.map((p) => p.peakRssMb));
    const pss = (phases: BrowserPhase[]) => Math.max(...phases.map((p) => p.peakPssMb));
    const cpu = (phases: BrowserPhase[]) => median(phases.map((p) => p.cpuMsPerPage));
    const failures = [...bare, ...engine].reduce((sum, p) => sum + p.failures, 0);
    const ratio = round((throughput(engine) / throughput(bare)) * 100, 0);
    return (
      `| ${c} | ${round(throughput(bare))} | ${round(throughput(engine))} | **${ratio} %** | ` +
      `${round(latency(bare))} | ${round(latency(engine))} | ${round(cpu(bare), 0)} | ${round(cpu(engine), 0)} | ` +
      `${rss(bare)} / ${pss(bare)} | ${rss(engine)} / ${pss(engine)} | ${failures} |`
    );
  });
  return [
    `Browser engine benchmark, ${result.date} — ${result.machine.cpus} × ${result.machine.model}, ` +
      `${result.machine.memoryGb} GB, load average ${result.loadAverage.join(' / ')}; ` +
      `${result.options.requests} pages per side, concurrency and round (${result.options.rounds} rounds, medians shown), ` +
      `engine pool ${result.options.poolSize}.`,
    '',
    '| concurrency | bare pages/s | engine pages/s | engine / bare | bare median ms | engine median ms | bare CPU ms/page | engine CPU ms/page | bare peak RSS / PSS MB | engine peak RSS / PSS MB | failures |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
