import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process accounting from /proc (Linux): CPU time and memory of another process, threads
 * included (worker threads, the PGlite thread and libuv's pool share the process's counters).
 */

let ticksPerSecond: number | null = null;

/** `getconf CLK_TCK`, the unit of utime/stime in /proc/<pid>/stat (100 almost everywhere). */
function clockTicks(): number {
  if (ticksPerSecond === null) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export interface CpuTime {
  userMs: number;
  systemMs: number;
}

/** User and system CPU time a process has used so far (all its threads); null once it is gone. */
export function readCpuTime(pid: number): CpuTime | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) may hold spaces and parentheses; fields are counted after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const tick = 1000 / clockTicks();
  return { userMs: Number(fields[11]) * tick, systemMs: Number(fields[12]) * tick };
}

export function cpuDelta(before: CpuTime, after: CpuTime): CpuTime & { totalMs: number } {
  const userMs = after.userMs - before.userMs;
  const systemMs = after.systemMs - before.systemMs;
  return { userMs, systemMs, totalMs: userMs + systemMs };
}

export interface MemoryUse {
  /** Resident set size now (VmRSS). */
  rssBytes: number;
  /** Peak resident set size since the process started (VmHWM). */
  hwmBytes: number;
  threads: number;
}

export function readMemory(pid: number): MemoryUse | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return {
    rssBytes: kb('VmRSS'),
    hwmBytes: kb('VmHWM'),
    threads: Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0),
  };
}

/** Child processes of `pid`, recursively (a service that spawns helpers is measured with them). */
export function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of parents.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** Sums CPU time over a process and its descendants. */
export function readTreeCpuTime(pids: readonly number[]): CpuTime {
  const total = { userMs: 0, systemMs: 0 };
  for (const pid of pids) {
    const t = readCpuTime(pid);
    if (t) {
      total.userMs += t.userMs;
      total.systemMs += t.systemMs;
    }
  }
  return total;
}

export interface MemorySampler {
  /** Stops sampling; returns the highest summed VmRSS seen and the number of samples. */
  stop(): { peakRssBytes: number; samples: number; lastRssBytes: number };
}

/**
 * Samples the summed VmRSS of `pids` every `intervalMs` (cheap: one small /proc read per pid).
 * VmHWM is read separately at the end: it also catches peaks between samples.
 */
export function sampleMemory(pids: readonly number[], intervalMs = 100): MemorySampler {
  let peak = 0;
  let last = 0;
  let samples = 0;
  const sample = () => {
    let sum = 0;
    for (const pid of pids) sum += readMemory(pid)?.rssBytes ?? 0;
    last = sum;
    peak = Math.max(peak, sum);
    samples += 1;
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peakRssBytes: peak, samples, lastRssBytes: last };
    },
  };
}

/**
 * CPU time the whole machine spent busy (all cores, from the first line of /proc/stat): with the
 * time of the processes under test subtracted, what everything else on the machine took.
 */
export function readMachineBusyMs(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1000) / clockTicks();
}
