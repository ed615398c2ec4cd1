import type { Logger } from '../../logger.js';
import type { CrawlLeases } from './crawl-leases.js';
import { CrawlRun, type CrawlRunDeps } from './crawl-run.js';
import type { ClaimedCrawl } from './crawl-rows.js';

export interface CrawlRunnerDeps extends CrawlRunDeps {
  leases: CrawlLeases;
  logger: Logger;
  /** Crawls this runner works on at once (CRAWL_ACTIVE_PER_THREAD). */
  activeCrawls: number;
}

interface Active {
  crawl: ClaimedCrawl;
  controller: AbortController;
  done: Promise<void>;
}

const IDLE_MAX_MS = 500;

/**
 * Runs crawls: claims in-progress crawls nobody holds (up to `activeCrawls` at once), renews
 * their leases, and runs each (CrawlRun) until it completes or the lease is lost. On stop it
 * stops claiming, ends its runs and gives their crawls back at once, so another runner resumes
 * them from the frontier without waiting for the lease to expire.
 */
export class CrawlRunner {
  private readonly active = new Map<string, Active>();
  private slotFreed: (() => void) | null = null;

  constructor(private readonly deps: CrawlRunnerDeps) {}

  async run(owner: string, signal: AbortSignal): Promise<void> {
    const { leases, logger } = this.deps;
    const heartbeat = setInterval(() => void this.heartbeat(owner), Math.max(500, leases.leaseMs / 3));
    let idleMs = 100;
    try {
      while (!signal.aborted) {
        if (this.active.size >= this.deps.activeCrawls) {
          await Promise.race([this.slotPromise(), sleep(IDLE_MAX_MS, signal)]);
          continue;
        }
        let claimed: ClaimedCrawl | null = null;
        try {
          claimed = await leases.claim(owner);
        } catch (err) {
          logger.warn({ err }, 'claiming a crawl failed; retrying');
          await sleep(Math.min((idleMs *= 2), 5000), signal);
          continue;
        }
        if (claimed) {
          this.start(owner, claimed, signal);
          idleMs = 100;
        } else {
          await Promise.race([sleep(idleMs, signal), this.slotPromise()]);
          idleMs = Math.min(idleMs * 2, IDLE_MAX_MS);
        }
      }
    } finally {
      clearInterval(heartbeat);
      await this.drain(owner);
    }
  }

  /** Crawls this runner holds right now. */
  holding(): string[] {
    return [...this.active.keys()];
  }

  private start(owner: string, crawl: ClaimedCrawl, stop: AbortSignal): void {
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, stop]);
    const run = new CrawlRun(this.deps, crawl, owner, signal);
    if (crawl.runs > 1) this.deps.logger.info({ crawl: crawl.id, runs: crawl.runs }, 'resuming a crawl');
    const done = run
      .execute()
      .catch((err: unknown) => {
        // Stopping or a lost lease abort what the run was doing: not a crash. Otherwise the
        // lease expires and a runner (maybe this one) resumes the crawl.
        if (!signal.aborted) this.deps.logger.error({ err, crawl: crawl.id }, 'crawl run crashed');
      })
      .finally(() => {
        this.active.delete(crawl.id);
        this.slotFreed?.();
      });
    this.active.set(crawl.id, { crawl, controller, done });
  }

  private async heartbeat(owner: string): Promise<void> {
    try {
      const lost = await this.deps.leases.heartbeat(owner, this.holding());
      for (const id of lost) this.active.get(id)?.controller.abort(new Error('crawl lease lost'));
    } catch (err) {
      this.deps.logger.warn({ err }, 'renewing crawl leases failed');
    }
  }

  private async drain(owner: string): Promise<void> {
    const all = [...this.active.values()];
    for (const a of all) a.controller.abort(new Error('shutting down'));
    await Promise.all(all.map((a) => a.done));
    for (const a of all) {
      await this.deps.leases.release(owner, a.crawl.id).catch(() => undefined);
    }
  }

  private slotPromise(): Promise<void> {
    return new Promise((resolve) => (this.slotFreed = resolve));
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
