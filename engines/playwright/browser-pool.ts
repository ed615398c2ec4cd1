import type { Browser } from 'playwright-core';
import type { EngineState } from '../../src/engine/types.js';

/** A browser the pool opened: launched here (its pid known, to kill it if it hangs) or connected to. */
export interface OpenedBrowser {
  browser: Browser;
  /** The browser process's id when it runs here; null for a remote browser (never killed). */
  pid: number | null;
}

export interface BrowserPoolOptions {
  /** Launches a browser here (`launchChromium`) or connects to a remote one. */
  open(): Promise<OpenedBrowser>;
  /** Contexts (pages) alive at once; further acquires wait. */
  size: number;
  /** Pages one browser renders before it is replaced (after its in-flight pages finish). */
  restartAfterPages: number;
  /**
   * After `failures` opens in a row failed, how long acquires fail at once with the last error
   * instead of trying again (a remote browser that is down); default 0: every acquire tries.
   */
  retryDelayMs?(failures: number): number;
  /**
   * When the browser is lost (not retired by the pool: a remote browser went away) or could not
   * be opened, open one again at once, and keep trying after `retryDelayMs` while it fails,
   * instead of waiting for the next page. Default false.
   */
  reopen?: boolean;
}

/** A slot in the pool on a running browser. Release it exactly once. */
export interface BrowserLease {
  readonly browser: Browser;
  /** `broken`: the browser misbehaved (a context would not close): replace it now. */
  release(options?: { broken?: boolean }): void;
}

export interface BrowserPoolStats {
  /** Browsers opened (launched or connected to). */
  launches: number;
  /** Pages served by the current browser. */
  served: number;
  active: number;
  waiting: number;
  /** Process id of the current browser (null: not running, or not Linux). */
  pid: number | null;
}

/**
 * One browser for the service process, opened on first use, with at most `size` leases at a
 * time. After `restartAfterPages` leases, or when it disconnects (crash, kill, a remote browser
 * going away), the next acquire opens a new one; a retired browser closes once its last lease is
 * released.
 *
 * @example
 * const pool = createBrowserPool({ size: 4, restartAfterPages: 500, open: () => launchChromium({ executablePath, pageHeapMb: 512 }) });
 * const lease = await pool.acquire(signal);
 * try { const context = await lease.browser.newContext(); … } finally { lease.release(); }
 */
export interface BrowserPool {
  acquire(signal: AbortSignal): Promise<BrowserLease>;
  /** Opens the browser now if none is running (without taking a slot); rejects as an acquire would. */
  warm(): Promise<Browser>;
  stats(): BrowserPoolStats;
  /** Health for the status: idle (no browser open), ready, failing (the last open failed). */
  state(): EngineState;
  stop(): Promise<void>;
}

interface Generation {
  browser: Browser;
  pid: number | null;
  served: number;
  active: number;
  retired: boolean;
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  let current: Generation | null = null;
  let launching: Promise<Generation> | null = null;
  let stopped = false;
  let launches = 0;
  let failure: { error: unknown; count: number; until: number } | null = null;
  let reopenTimer: NodeJS.Timeout | null = null;
  const all = new Set<Generation>();
  const slots = createSemaphore(options.size);

  async function launch(): Promise<Generation> {
    let browser: OpenedBrowser;
    try {
      browser = await options.open();
    } catch (err) {
      const count = (failure?.count ?? 0) + 1;
      failure = { error: err, count, until: Date.now() + (options.retryDelayMs?.(count) ?? 0) };
      scheduleReopen();
      throw err;
    }
    failure = null;
    launches++;
    const generation: Generation = { browser: browser.browser, pid: browser.pid, served: 0, active: 0, retired: false };
    all.add(generation);
    browser.browser.on('disconnected', () => {
      const lost = !generation.retired && !stopped;
      generation.retired = true;
      all.delete(generation);
      if (current === generation) current = null;
      if (lost) scheduleReopen();
    });
    return generation;
  }

  async function currentGeneration(): Promise<Generation> {
    if (current && current.browser.isConnected()) return current;
    if (failure && Date.now() < failure.until) throw failure.error;
    launching ??= launch().finally(() => (launching = null));
    const generation = await launching;
    if (stopped) {
      await closeBrowser(generation);
      throw new Error('the browser pool is stopped');
    }
    current = generation;
    return generation;
  }

  /** Opens a browser again after a loss or a failure (after its delay), until one opens or the pool stops. */
  function scheduleReopen(): void {
    if (!options.reopen || stopped || reopenTimer) return;
    const delay = failure ? Math.max(0, failure.until - Date.now()) : 0;
    reopenTimer = setTimeout(() => {
      reopenTimer = null;
      if (stopped || current) return;
      // A page's own try may have failed meanwhile, with a longer wait.
      if (failure && Date.now() < failure.until) return scheduleReopen();
      // A failure schedules the next try itself (launch).
      currentGeneration().catch(() => undefined);
    }, delay);
    reopenTimer.unref();
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
    warm: async () => (await currentGeneration()).browser,
    state: () => {
      if (failure) return { status: 'failing', detail: firstLine(failure.error) };
      return { status: current?.browser.isConnected() ? 'ready' : 'idle', detail: null };
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
      if (reopenTimer) clearTimeout(reopenTimer);
      slots.close(new Error('the browser engine is stopping'));
      const pending = launching ? [launching.catch(() => null)] : [];
      const late = (await Promise.all(pending)).filter((g): g is Generation => g !== null);
      await Promise.all([...all, ...late].map((g) => closeBrowser(g)));
      all.clear();
      current = null;
    },
  };
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

function firstLine(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').slice(0, 300);
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
