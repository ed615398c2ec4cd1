import os from 'node:os';
import {
  type CpuTime,
  descendants,
  readCpuTime,
  readMachineBusyMs,
  readMemory,
  readTreeCpuTime,
} from '../measure/proc-stats.js';
import { round } from '../measure/stats.js';
import type { Backend } from './bench-database.js';

/** A process whose CPU and memory a phase accounts: the API, a worker, the site server. */
export interface MeteredProcess {
  name: string;
  pid: number;
}

/** The database server's processes serving this run's database, by connection. */
export type BackendLister = () => Promise<Backend[]>;

/** What the database sessions were doing, mean number of sessions over 1 s samples. */
export interface SessionStates {
  samples: number;
  /** Running a statement (waiting for a lock included). */
  active: number;
  /** Waiting for a lock held by another transaction (a hot row). */
  waitingForLock: number;
  /** In an open transaction while its client is busy elsewhere: locks held, nothing running. */
  idleInTransaction: number;
}

export interface ProcessUse {
  name: string;
  pid: number;
  cpuMs: number;
  /** VmRSS (process and descendants, all threads) when the phase started, its highest 100 ms sample, and at the end. */
  startRssMiB: number;
  peakRssMiB: number;
  endRssMiB: number;
  /** VmHWM at the end: the process's peak since it started, between samples included. */
  hwmMiB: number;
  threads: number;
}

export interface PhaseUse {
  wallMs: number;
  processes: ProcessUse[];
  /** Highest sum of the service processes' VmRSS in one sample (the site server is not service). */
  servicePeakRssMiB: number;
  /** CPU of the database server's backends for this database, by `application_name` (`gleaner-api`, ...). */
  databaseCpuMs: Record<string, number>;
  databaseSessions: SessionStates;
  /** CPU of this benchmark process (load generator, poller, samplers). */
  driverCpuMs: number;
  /** What every other process on the machine took meanwhile: noise from outside the benchmark. */
  otherCpuMs: number;
  loadAverage: { start: number; end: number };
}

const MiB = 1048576;

/**
 * Accounts one phase of the benchmark from outside the processes: CPU time of each (all
 * threads, descendants included) from /proc, their summed RSS sampled every `intervalMs`, the
 * CPU of the database backends serving this run's database (listed every second, since pools open
 * connections on demand) and what their sessions were doing, and the machine's busy time, so the load others put on the shared
 * cores is reported next to the numbers it distorts.
 */
export async function meterPhase<T>(
  processes: readonly MeteredProcess[],
  serviceNames: ReadonlySet<string>,
  listBackends: BackendLister,
  work: () => Promise<T>,
  intervalMs = 100,
): Promise<{ result: T; use: PhaseUse }> {
  const trees = processes.map((p) => [p.pid, ...descendants(p.pid)]);
  const cpuBefore = trees.map((pids) => readTreeCpuTime(pids));
  const rss = (pids: number[]) => pids.reduce((sum, pid) => sum + (readMemory(pid)?.rssBytes ?? 0), 0);
  const startRss = trees.map(rss);
  const peakRss = [...startRss];
  let servicePeak = 0;
  const sample = () => {
    let serviceSum = 0;
    trees.forEach((pids, i) => {
      const now = rss(pids);
      peakRss[i] = Math.max(peakRss[i]!, now);
      if (serviceNames.has(processes[i]!.name)) serviceSum += now;
    });
    servicePeak = Math.max(servicePeak, serviceSum);
  };
  const backends = await trackBackends(listBackends);
  const machineBefore = readMachineBusyMs();
  const driverBefore = process.cpuUsage();
  const loadStart = os.loadavg()[0] ?? NaN;
  const started = performance.now();
  sample();
  const timer = setInterval(sample, intervalMs);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  sample();
  const wallMs = performance.now() - started;
  const { cpuMs: databaseCpuMs, sessions: databaseSessions } = await backends.stop();
  const driver = process.cpuUsage(driverBefore);
  const machineMs = readMachineBusyMs() - machineBefore;
  const used = processes.map((p, i): ProcessUse => {
    const after = readTreeCpuTime(trees[i]!);
    const memory = readMemory(p.pid);
    return {
      name: p.name,
      pid: p.pid,
      cpuMs: round(after.userMs + after.systemMs - cpuBefore[i]!.userMs - cpuBefore[i]!.systemMs, 0),
      startRssMiB: round(startRss[i]! / MiB, 1),
      peakRssMiB: round(peakRss[i]! / MiB, 1),
      endRssMiB: round(rss(trees[i]!) / MiB, 1),
      hwmMiB: round((memory?.hwmBytes ?? NaN) / MiB, 1),
      threads: memory?.threads ?? 0,
    };
  });
  const driverCpuMs = (driver.user + driver.system) / 1000;
  const accounted =
    used.reduce((sum, p) => sum + p.cpuMs, 0) + Object.values(databaseCpuMs).reduce((a, b) => a + b, 0) + driverCpuMs;
  return {
    result,
    use: {
      wallMs: round(wallMs, 0),
      processes: used,
      servicePeakRssMiB: round(servicePeak / MiB, 1),
      databaseCpuMs,
      databaseSessions,
      driverCpuMs: round(driverCpuMs, 0),
      otherCpuMs: round(Math.max(0, machineMs - accounted), 0),
      loadAverage: { start: round(loadStart), end: round(os.loadavg()[0] ?? NaN) },
    },
  };
}

/**
 * CPU of the database backends over a phase, and what their sessions were doing. Backends
 * present at the start count from their CPU then; those that appear later started during the
 * phase and count from zero; one that exits keeps the last value read (so a closed connection
 * loses at most a second of its CPU).
 */
async function trackBackends(
  list: BackendLister,
): Promise<{ stop(): Promise<{ cpuMs: Record<string, number>; sessions: SessionStates }> }> {
  const seen = new Map<number, { application: string; base: number; last: number }>();
  const states = { samples: 0, active: 0, waitingForLock: 0, idleInTransaction: 0 };
  const total = (t: CpuTime | null) => (t ? t.userMs + t.systemMs : null);
  const refresh = async (initial: boolean) => {
    const backends = await list();
    states.samples += 1;
    for (const b of backends) {
      if (b.state === 'active') states.active += 1;
      if (b.waitEventType === 'Lock') states.waitingForLock += 1;
      if (b.state.startsWith('idle in transaction')) states.idleInTransaction += 1;
    }
    for (const { pid, application } of backends) {
      const cpu = total(readCpuTime(pid));
      if (cpu === null) continue;
      const known = seen.get(pid);
      if (known) known.last = cpu;
      else seen.set(pid, { application: application || '(unnamed)', base: initial ? cpu : 0, last: cpu });
    }
    for (const [pid, entry] of seen) entry.last = total(readCpuTime(pid)) ?? entry.last;
  };
  await refresh(true);
  let polling = Promise.resolve();
  const timer = setInterval(() => {
    polling = polling.then(() => refresh(false)).catch(() => undefined);
  }, 1000);
  return {
    async stop() {
      clearInterval(timer);
      await polling;
      await refresh(false);
      const byApplication: Record<string, number> = {};
      for (const { application, base, last } of seen.values()) {
        byApplication[application] = round((byApplication[application] ?? 0) + last - base, 0);
      }
      const mean = (n: number) => round(n / Math.max(1, states.samples), 2);
      return {
        cpuMs: byApplication,
        sessions: {
          samples: states.samples,
          active: mean(states.active),
          waitingForLock: mean(states.waitingForLock),
          idleInTransaction: mean(states.idleInTransaction),
        },
      };
    },
  };
}
