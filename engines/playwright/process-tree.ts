import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process bookkeeping from /proc (Linux; elsewhere everything is empty): which children of this
 * process are Chromium browser processes, and how much memory a process tree holds. Playwright's
 * `launch()` does not expose the browser's pid, which a hung browser must be killed by.
 */
interface ProcInfo {
  pid: number;
  ppid: number;
  rssBytes: number;
  /** CPU time of the process and of its reaped children (utime + stime + cutime + cstime), clock ticks. */
  cpuTicks: number;
  cmdline: string;
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const rssPages = Number(fields[21]);
    const cpuTicks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return { pid, ppid, rssBytes: rssPages * 4096, cpuTicks, cmdline };
  } catch {
    return null;
  }
}

function allProcesses(): ProcInfo[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readProc(Number(name)))
    .filter((p): p is ProcInfo => p !== null);
}

/** Pids of Chromium browser processes (not renderers or helpers) started by this process. */
export function browserProcessIds(parent = process.pid): number[] {
  return allProcesses()
    .filter((p) => p.ppid === parent && p.cmdline.includes('--remote-debugging-pipe') && !p.cmdline.includes('--type='))
    .map((p) => p.pid);
}

/** `root` and every process below it (Chromium's renderers, GPU and utility processes included). */
function processTree(root: number): ProcInfo[] {
  const processes = allProcesses();
  const children = new Map<number, ProcInfo[]>();
  for (const p of processes) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const tree: ProcInfo[] = [];
  const stack = processes.filter((p) => p.pid === root);
  while (stack.length > 0) {
    const next = stack.pop()!;
    tree.push(next);
    stack.push(...(children.get(next.pid) ?? []));
  }
  return tree;
}

/**
 * Memory of a process tree in bytes. `rss` sums each process's resident set, as `ps` shows it
 * (pages shared between Chromium's processes count once per process, so it overstates);
 * `pss` sums proportional set sizes (shared pages divided among their sharers: what the tree
 * really costs).
 *
 * @example
 * const { rss, pss } = processTreeMemory(process.pid); // the service plus its browser
 */
export function processTreeMemory(root: number): { rss: number; pss: number } {
  let rss = 0;
  let pss = 0;
  for (const p of processTree(root)) {
    rss += p.rssBytes;
    pss += readPss(p.pid) ?? p.rssBytes;
  }
  return { rss, pss };
}

function readPss(pid: number): number | null {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * CPU time a process tree has used, in milliseconds: every live process's own time plus the time
 * of children it already reaped (a closed renderer's time moves into its parent's account).
 * Differences between two readings are the tree's CPU over that interval.
 *
 * @example
 * const before = processTreeCpuMs(process.pid);
 * await work();
 * const cpuMs = processTreeCpuMs(process.pid) - before;
 */
export function processTreeCpuMs(root: number): number {
  return (processTree(root).reduce((sum, p) => sum + p.cpuTicks, 0) * 1000) / TICKS_PER_SECOND;
}
