import os from 'node:os';
import type { PhaseResult } from '../measure/fixed-concurrency.js';
import {
  cpuDelta,
  readCpuTime,
  readMachineBusyMs,
  readMemory,
  readTreeCpuTime,
  sampleMemory,
} from '../measure/proc-stats.js';
import { type LatencySummary, round, summarise } from '../measure/stats.js';

export type Side = 'reference' | 'service';

/** One side at one concurrency, over all its rounds. */
export interface PhaseRecord {
  side: Side;
  concurrency: number;
  requests: number;
  rounds: number;
  failures: number;
  firstFailure?: string;
  /** Sum of the rounds' wall times. */
  wallMs: number;
  pagesPerSecond: number;
  latencyMs: LatencySummary;
  /** CPU of the measured process (the service, or the reference child), all threads, per page. */
  cpuMsPerPage: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Highest VmRSS sampled every 100 ms during the rounds, and VmHWM (peak since start) after them. */
  peakRssMiB: number;
  hwmMiB: number;
  threads: number;
  /** CPU of the static site server per page (the same work on both sides). */
  siteCpuMsPerPage: number;
  /** CPU of the benchmark process itself per page: the load generator on the service side. */
  driverCpuMsPerPage: number;
  /**
   * CPU that other processes on the machine took during the rounds, per page (machine busy time
   * minus the measured process, the site server and the driver): noise from outside the benchmark.
   */
  otherCpuMsPerPage: number;
  /** Reference only: mean ms per page in the engine fetch and in each pipeline stage (wall clock). */
  stagesMsPerPage?: Record<string, number>;
}

/** What one round cost, as measured from outside the processes. */
export interface RoundUse {
  phase: PhaseResult;
  cpuUserMs: number;
  cpuSystemMs: number;
  siteCpuMs: number;
  driverCpuMs: number;
  machineBusyMs: number;
  peakRssBytes: number;
  hwmBytes: number;
  threads: number;
  stages?: Record<string, number>;
}

/**
 * Runs one round while accounting the CPU of `pid`, of the site server and of this process, the
 * machine's busy time, and sampling `pid`'s memory.
 */
export async function accounted(
  pid: number,
  sitePid: number,
  work: () => Promise<{ phase: PhaseResult; stages?: Record<string, number> }>,
): Promise<RoundUse> {
  const cpuBefore = readTreeCpuTime([pid]);
  const siteBefore = readCpuTime(sitePid);
  const driverBefore = process.cpuUsage();
  const machineBefore = readMachineBusyMs();
  const sampler = sampleMemory([pid], 100);
  const { phase, stages } = await work();
  const memory = sampler.stop();
  const machineBusyMs = readMachineBusyMs() - machineBefore;
  const driver = process.cpuUsage(driverBefore);
  const siteAfter = readCpuTime(sitePid);
  const cpu = cpuDelta(cpuBefore, readTreeCpuTime([pid]));
  const status = readMemory(pid);
  return {
    phase,
    ...(stages ? { stages } : {}),
    cpuUserMs: cpu.userMs,
    cpuSystemMs: cpu.systemMs,
    siteCpuMs: siteBefore && siteAfter ? cpuDelta(siteBefore, siteAfter).totalMs : NaN,
    driverCpuMs: (driver.user + driver.system) / 1000,
    machineBusyMs,
    peakRssBytes: memory.peakRssBytes,
    hwmBytes: status?.hwmBytes ?? NaN,
    threads: status?.threads ?? 0,
  };
}

/** Folds the rounds of one side at one concurrency into its record. */
export function toRecord(side: Side, concurrency: number, rounds: readonly RoundUse[]): PhaseRecord {
  const sum = (pick: (r: RoundUse) => number) => rounds.reduce((total, r) => total + pick(r), 0);
  const latencies = rounds.flatMap((r) => r.phase.latenciesMs);
  const failures = rounds.flatMap((r) => r.phase.failures);
  const n = latencies.length;
  const wallMs = sum((r) => r.phase.wallMs);
  const cpuMs = sum((r) => r.cpuUserMs + r.cpuSystemMs);
  const siteCpuMs = sum((r) => r.siteCpuMs);
  const driverCpuMs = sum((r) => r.driverCpuMs);
  const mib = (bytes: number) => round(bytes / 1048576, 1);
  const last = rounds[rounds.length - 1]!;
  const out: PhaseRecord = {
    side,
    concurrency,
    requests: n,
    rounds: rounds.length,
    failures: failures.length,
    ...(failures[0] ? { firstFailure: failures[0].message } : {}),
    wallMs: round(wallMs, 0),
    pagesPerSecond: round((1000 * n) / wallMs, 1),
    latencyMs: summarise(latencies),
    cpuMsPerPage: round(cpuMs / n),
    cpuUserMs: round(
      sum((r) => r.cpuUserMs),
      0,
    ),
    cpuSystemMs: round(
      sum((r) => r.cpuSystemMs),
      0,
    ),
    peakRssMiB: mib(Math.max(...rounds.map((r) => r.peakRssBytes))),
    hwmMiB: mib(last.hwmBytes),
    threads: last.threads,
    siteCpuMsPerPage: round(siteCpuMs / n),
    driverCpuMsPerPage: round(driverCpuMs / n),
    otherCpuMsPerPage: round(Math.max(0, sum((r) => r.machineBusyMs) - cpuMs - siteCpuMs - driverCpuMs) / n),
  };
  if (rounds.every((r) => r.stages)) {
    const stages: Record<string, number> = {};
    for (const r of rounds)
      for (const [stage, ms] of Object.entries(r.stages!)) stages[stage] = (stages[stage] ?? 0) + ms;
    out.stagesMsPerPage = Object.fromEntries(Object.entries(stages).map(([stage, ms]) => [stage, round(ms / n)]));
  }
  return out;
}

/** The 1-minute load average, for the run's record. */
export function loadAverage(): number {
  return round(os.loadavg()[0] ?? NaN);
}
