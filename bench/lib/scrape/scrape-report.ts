import type { ProfileSummary } from '../measure/cpu-profile.js';
import { round } from '../measure/stats.js';
import type { PhaseRecord } from './phase-accounting.js';
import type { MarkdownCheck } from './scrape-phases.js';

/** The goals of the scrape benchmark (issue 3, item 6). */
export const GOALS = { throughputRatio: 0.7, medianOverheadMs: 5, rssMiB: 400 } as const;

export interface ScrapeBenchResult {
  startedAt: string;
  command: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; kernel: string };
  settings: {
    pages: number;
    requests: number;
    warmup: number;
    rounds: number;
    concurrency: number[];
    seed: string;
    gzip: boolean;
    database: 'embedded' | 'server';
    /** The service's `--role` (absent in older results: all). */
    role?: 'all' | 'api';
    profiled: boolean;
  };
  site: { articles: number; articleBytes: { min: number; max: number; mean: number } };
  /** 1-minute load average when the run started and ended (2 cores: above 2 means others were waiting too). */
  loadAverage: { start: number; end: number };
  /** RSS of the service right after its first boot (PGlite initdb) and after the restart it is measured in. */
  serviceFirstBootRssMiB?: number;
  serviceIdleRssMiB?: number;
  markdownCheck?: MarkdownCheck;
  phases: PhaseRecord[];
  comparisons: Comparison[];
  profiles?: { side: string; summaries: ProfileSummary[] }[];
}

export interface Comparison {
  concurrency: number;
  throughputRatio: number;
  medianOverheadMs: number;
  p95OverheadMs: number;
  cpuOverheadMsPerPage: number;
  /**
   * Reference CPU per page ÷ service CPU per page: the throughput ratio to expect once the cores are
   * saturated. Far less sensitive to other work on a shared machine than the wall-clock ratio.
   */
  cpuBoundThroughputRatio: number;
  servicePeakRssMiB: number;
  goals: { throughput: boolean; medianOverhead: boolean; rss: boolean };
}

export function compare(phases: readonly PhaseRecord[]): Comparison[] {
  const out: Comparison[] = [];
  for (const svc of phases.filter((p) => p.side === 'service')) {
    const ref = phases.find((p) => p.side === 'reference' && p.concurrency === svc.concurrency);
    if (!ref) continue;
    const throughputRatio = round(svc.pagesPerSecond / ref.pagesPerSecond, 3);
    const medianOverheadMs = round(svc.latencyMs.median - ref.latencyMs.median);
    out.push({
      concurrency: svc.concurrency,
      throughputRatio,
      medianOverheadMs,
      p95OverheadMs: round(svc.latencyMs.p95 - ref.latencyMs.p95),
      cpuOverheadMsPerPage: round(svc.cpuMsPerPage - ref.cpuMsPerPage),
      cpuBoundThroughputRatio: round(ref.cpuMsPerPage / svc.cpuMsPerPage, 3),
      servicePeakRssMiB: svc.peakRssMiB,
      goals: {
        throughput: throughputRatio >= GOALS.throughputRatio && svc.failures === 0,
        medianOverhead: medianOverheadMs <= GOALS.medianOverheadMs,
        rss: Math.max(svc.peakRssMiB, 0) <= GOALS.rssMiB,
      },
    });
  }
  return out;
}

const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

/** The run as markdown: what docs/benchmarks.md and bench/results/*.md show. */
export function renderReport(result: ScrapeBenchResult): string {
  const { machine, settings } = result;
  const lines = [
    `Run ${result.startedAt}: \`${result.command}\``,
    '',
    `Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB, Node ${machine.node}, Linux ${machine.kernel}. ` +
      `Site: ${result.site.articles} articles, ${kib(result.site.articleBytes.min)}–${kib(result.site.articleBytes.max)} KiB ` +
      `(mean ${kib(result.site.articleBytes.mean)} KiB)${settings.gzip ? ', gzip' : ''}. ` +
      `${settings.requests} measured pages per side and concurrency, in ${settings.rounds} interleaved rounds, after ${settings.warmup} warm-up pages; ` +
      `load average ${result.loadAverage.start} at the start, ${result.loadAverage.end} at the end; database: ${settings.database}; service role: ${settings.role ?? 'all'}` +
      `${settings.profiled ? '; **CPU-profiled run (slower than normal)**' : ''}.`,
    '',
    '| side | conc. | pages/s | median ms | p95 ms | CPU ms/page | peak RSS MiB | site CPU ms/page | driver CPU ms/page | other processes CPU ms/page | failures |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...result.phases.map(
      (p) =>
        `| ${p.side} | ${p.concurrency} | ${p.pagesPerSecond} | ${p.latencyMs.median} | ${p.latencyMs.p95} | ${p.cpuMsPerPage} | ` +
        `${p.peakRssMiB} | ${p.siteCpuMsPerPage} | ${p.driverCpuMsPerPage} | ${p.otherCpuMsPerPage ?? '?'} | ${p.failures} |`,
    ),
  ];
  if (result.comparisons.length > 0) {
    lines.push(
      '',
      `| conc. | throughput service/reference (goal ≥ ${GOALS.throughputRatio * 100} %) | median overhead ms (goal ≤ ${GOALS.medianOverheadMs}) | p95 overhead ms | CPU overhead ms/page | CPU-bound throughput ratio | service peak RSS MiB (goal ≤ ${GOALS.rssMiB}) |`,
      '|---:|---:|---:|---:|---:|---:|---:|',
      ...result.comparisons.map(
        (c) =>
          `| ${c.concurrency} | ${round(c.throughputRatio * 100, 1)} % ${verdict(c.goals.throughput)} | ${c.medianOverheadMs} ${verdict(c.goals.medianOverhead)} | ` +
          `${c.p95OverheadMs} | ${c.cpuOverheadMsPerPage} | ${round(c.cpuBoundThroughputRatio * 100, 1)} % | ${c.servicePeakRssMiB} ${verdict(c.goals.rss)} |`,
      ),
    );
  }
  if (result.serviceIdleRssMiB !== undefined) {
    lines.push(
      '',
      `Service RSS before load: ${result.serviceIdleRssMiB} MiB after a restart on its DATA_DIR ` +
        `(${result.serviceFirstBootRssMiB ?? '?'} MiB right after the first boot, which ran PGlite's initdb).`,
    );
  }
  lines.push('', ...stageLines(result.phases), ...checkLines(result));
  for (const profile of result.profiles ?? []) lines.push('', ...profileLines(profile.side, profile.summaries));
  return `${lines.join('\n')}\n`;
}

function kib(bytes: number): number {
  return round(bytes / 1024, 1);
}

/** Where the reference's time goes at concurrency 1 (no queueing): fetch and each pipeline stage. */
function stageLines(phases: readonly PhaseRecord[]): string[] {
  const ref = phases.find((p) => p.side === 'reference' && p.stagesMsPerPage);
  if (!ref?.stagesMsPerPage) return [];
  const stages = ref.stagesMsPerPage;
  const pipeline = Object.entries(stages)
    .filter(([s]) => s !== 'fetch')
    .reduce((sum, [, ms]) => sum + ms, 0);
  const cells = Object.entries(stages).map(([s, ms]) => `${s} ${ms} ms`);
  const markdownShare = round((100 * (stages.markdown ?? 0)) / pipeline, 1);
  return [
    `Reference at concurrency ${ref.concurrency}, mean per page: ${cells.join(', ')}; conversion total ${round(pipeline)} ms, ` +
      `of which the markdown converter (turndown with our rules and tidy) ${markdownShare} %. ` +
      `One core converts at most ${round(1000 / pipeline, 1)} pages/s.`,
  ];
}

function checkLines(result: ScrapeBenchResult): string[] {
  const check = result.markdownCheck;
  if (!check) return [];
  const line = `Markdown check: ${check.identical} of ${check.pages} pages identical between the service and the reference.`;
  const diff = check.firstDifference;
  if (!diff) return ['', line];
  return [
    '',
    `${line} First difference at offset ${diff.offset} of ${diff.url}:`,
    '',
    '```text',
    `service:   ${JSON.stringify(diff.service)}`,
    `reference: ${JSON.stringify(diff.reference)}`,
    '```',
  ];
}

export function profileLines(side: string, summaries: readonly ProfileSummary[]): string[] {
  const main = summaries[0];
  if (!main) return [];
  const others = summaries.slice(1).map(
    (s) =>
      `${s.busyMs} ms (${s.byCategory
        .slice(0, 3)
        .map((c) => `${c.name} ${c.share} %`)
        .join(', ')})`,
  );
  return [
    `CPU profile of the ${side} (main thread ${main.busyMs} ms busy${others.length ? `; other threads: ${others.join(', ')}` : ''}):`,
    '',
    '| self time by package / directory | ms | % |',
    '|---|---:|---:|',
    ...main.byCategory.slice(0, 15).map((c) => `| ${c.name} | ${c.selfMs} | ${c.share} |`),
    '',
    '| self time charged to the deepest file of this repository on the stack | ms | % |',
    '|---|---:|---:|',
    ...main.byOwnFile.slice(0, 15).map((f) => `| ${f.file} | ${f.ms} | ${f.share} |`),
    '',
    '| inclusive (synchronous stacks) | ms | % |',
    '|---|---:|---:|',
    ...main.inclusive.map((p) => `| ${p.label} | ${p.ms} | ${p.share} |`),
    '',
    '| top functions (self) | where | ms | % |',
    '|---|---|---:|---:|',
    ...main.topFunctions.slice(0, 20).map((f) => `| ${f.name} | ${f.where} | ${f.selfMs} | ${f.share} |`),
  ];
}
