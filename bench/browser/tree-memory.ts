import { processTreeMemory } from '../../engines/playwright/process-tree.js';

export interface MemoryPeak {
  /** Peak of the summed RSS of every process in the tree (what `ps` adds up; overstates shared pages). */
  rssBytes: number;
  /** Peak of the summed PSS (shared pages divided among their processes). */
  pssBytes: number;
}

/**
 * Samples the memory of a process tree (the benchmark process and its Chromium) every
 * `intervalMs` and keeps the peaks. Trees rooted at `exclude` (the fixture server) are left out.
 *
 * @example
 * const memory = sampleTreeMemory(process.pid, [serverPid]);
 * await work();
 * const { rssBytes, pssBytes } = memory.stop();
 */
export function sampleTreeMemory(root: number, exclude: number[], intervalMs = 100): { stop(): MemoryPeak } {
  const peak: MemoryPeak = { rssBytes: 0, pssBytes: 0 };
  const sample = () => {
    const total = processTreeMemory(root);
    for (const pid of exclude) {
      const other = processTreeMemory(pid);
      total.rss -= other.rss;
      total.pss -= other.pss;
    }
    peak.rssBytes = Math.max(peak.rssBytes, total.rss);
    peak.pssBytes = Math.max(peak.pssBytes, total.pss);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
