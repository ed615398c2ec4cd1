import type { Browser } from 'playwright-core';
import { browserProcessIds } from './process-tree.js';

export interface BrowserPoolOptions {
  executablePath: string;
  /** Contexts (pages) alive at once; further acquires wait. */
  size: number;
  /** Pages one browser process renders before it is replaced (after its in-flight pages finish). */
  restartAfterPages: number;
  /** V8 heap limit of each renderer process, MB. */
  pageHeapMb: number;
  /** Default 30 s. */
  launchTimeoutMs?: number;
}

/** A slot in the pool on a running browser. Release it exactly once. */
export interface BrowserLease {
  readonly browser: Browser;
  /** `broken`: the browser misbehaved (a context would not close): replace it now. */
  release(options?: { broken?: boolean }): void;
}

export interface BrowserPoolStats {
  launches: number;
  /** Pages served by the current browser. */
  served: number;
  active: number;
  waiting: number;
  /** Process id of the current browser (null: not running, or not Linux). */
  pid: number | null;
}

/**
 * One Chromium process for the service process, launched on first use, with at most `size`
 * leases at a time. After `restartAfterPages` leases, or when it disconnects (crash, kill), the
 * next acquire launches a new browser; a retired browser closes once its last lease is released.
 *
 * @example
 * const pool = createBrowserPool({ executablePath, size: 4, restartAfterPages: 500, pageHeapMb: 512 });
 * const lease = await pool.acquire(signal);
 * try { const context = await lease.browser.newContext(); … } finally { lease.release(); }
 */
export interface BrowserPool {
  acquire(signal: AbortSignal): Promise<BrowserLease>;
  stats(): BrowserPoolStats;
  stop(): Promise<void>;
}

interface Generation {
  browser: Browser;
  pid: number | null;
  served: number;
  active: number;
  retired: boolean;
}

/** Flags for a headless scraping browser in a container (see docs/engines.md, "The playwright engine"). */
export function chromiumArgs(pageHeapMb: number): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-breakpad',
    '--mute-audio',
    '--hide-scrollbars',
    // Scroll actions land at once instead of animating.
    '--disable-smooth-scrolling',
    '--password-store=basic',
    '--use-mock-keychain',
    '--metrics-recording-only',
    // Everything leaves through the guard proxy: no QUIC, no WebRTC UDP around it.
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,NetworkPrediction,InterestFeedContentSuggestions',
    '--disable-blink-features=AutomationControlled',
    `--js-flags=--max-old-space-size=${pageHeapMb}`,
  ];
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  let current: Generation | null = null;
  let launching: Promise<Generation> | null = null;
  let stopped = false;
  let launches = 0;
  const all = new Set<Generation>();
  const slots = createSemaphore(options.size);

  async function launch(): Promise<Generation> {
    const browser = await launchTracked(options);
    launches++;
    const generation: Generation = { browser: browser.browser, pid: browser.pid, served: 0, active: 0, retired: false };
    all.add(generation);
    browser.browser.on('disconnected', () => {
      generation.retired = true;
      all.delete(generation);
      if (current === generation) current = null;
    });
    return generation;
  }

  async function currentGeneration(): Promise<Generation> {
    if (current && current.browser.isConnected()) return current;
    launching ??= launch().finally(() => (launching = null));
    const generation = await launching;
    if (stopped) {
      await closeBrowser(generation);
      throw new Error('the browser pool is stopped');
    }
    current = generation;
    return generation;
  }

  function retire(generation: Generation, now: boolean): void {
    generation.retired = true;
    if (current === generation) current = null;
    if (now || generation.active === 0) void closeBrowser(generation);
  }

  return {
    async acquire(signal) {
      if (stopped) throw new Error('the browser pool is stopped');
      await slots.take(signal);
      let generation: Generation;
      try {
        generation = await currentGeneration();
      } catch (err) {
        slots.give();
        throw err;
      }
      generation.served++;
      generation.active++;
      if (generation.served >= options.restartAfterPages) retire(generation, false);
      let released = false;
      return {
        browser: generation.browser,
        release({ broken = false } = {}) {
          if (released) return;
          released = true;
          generation.active--;
          slots.give();
          if (broken) retire(generation, true);
          else if (generation.retired && generation.active === 0) void closeBrowser(generation);
        },
      };
    },
    stats: () => ({
      launches,
      served: current?.served ?? 0,
      active: current?.active ?? 0,
      waiting: slots.waiting(),
      pid: current?.pid ?? null,
    }),
    async stop() {
      stopped = true;
      slots.close(new Error('the browser engine is stopping'));
      const pending = launching ? [launching.catch(() => null)] : [];
      const late = (await Promise.all(pending)).filter((g): g is Generation => g !== null);
      await Promise.all([...all, ...late].map((g) => closeBrowser(g)));
      all.clear();
      current = null;
    },
  };
}

/** Launches serialised across the process, so the new browser's pid can be told from others'. */
let launchQueue: Promise<unknown> = Promise.resolve();

async function launchTracked(options: BrowserPoolOptions): Promise<{ browser: Browser; pid: number | null }> {
  const run = launchQueue.then(async () => {
    // playwright-core is loaded on the first launch: a service that never renders a page does
    // not carry it (tens of MB of heap).
    const { chromium } = await import('playwright-core');
    const before = new Set(browserProcessIds());
    const browser = await chromium.launch({
      executablePath: options.executablePath,
      headless: true,
      args: chromiumArgs(options.pageHeapMb),
      timeout: options.launchTimeoutMs ?? 30_000,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const pid = browserProcessIds().find((p) => !before.has(p)) ?? null;
    return { browser, pid };
  });
  launchQueue = run.catch(() => undefined);
  return run;
}

/** Closes a browser; if it does not answer within 5 s its process is killed. */
async function closeBrowser(generation: Pick<Generation, 'browser' | 'pid'>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 5000)));
  try {
    const outcome = await Promise.race([generation.browser.close().catch(() => undefined), timeout]);
    if (outcome === 'timeout' && generation.pid !== null) killQuietly(generation.pid);
  } finally {
    clearTimeout(timer);
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

interface Semaphore {
  take(signal: AbortSignal): Promise<void>;
  give(): void;
  waiting(): number;
  close(reason: Error): void;
}

/** A counting semaphore whose waiters leave the queue when their signal aborts. */
function createSemaphore(size: number): Semaphore {
  let free = size;
  let closed: Error | null = null;
  const queue: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  return {
    take(signal) {
      if (closed) return Promise.reject(closed);
      signal.throwIfAborted();
      if (free > 0) {
        free--;
        return Promise.resolve();
      }
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          resolve: () => {
            signal.removeEventListener('abort', onAbort);
            resolve();
          },
          reject: (err: unknown) => {
            signal.removeEventListener('abort', onAbort);
            reject(err);
          },
        };
        const onAbort = () => {
          const index = queue.indexOf(waiter);
          if (index >= 0) queue.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(waiter);
      });
    },
    give() {
      const next = queue.shift();
      if (next) next.resolve();
      else free++;
    },
    waiting: () => queue.length,
    close(reason) {
      closed = reason;
      for (const waiter of queue.splice(0)) waiter.reject(reason);
    },
  };
}
