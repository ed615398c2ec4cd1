import type { DiscoveryFetcher } from '../../discovery/types.js';
import type { Logger } from '../../logger.js';
import { compileUrlFilter } from '../../url/glob.js';
import { createRobotsCache, type RobotsCache } from '../maps/robots-cache.js';
import { ROBOTS_PRODUCT_TOKEN } from '../maps/map.service.js';
import type { PreparedScrape, ScrapeExecutor } from '../scrapes/scrape-executor.js';
import type { CrawlEngine, CrawlTarget, CrawlWork, CrawledPage } from '../../engine/crawl-engine.js';
import type { CrawlStopReason } from './crawl.entity.js';
import type { CrawlFrontier } from './crawl-frontier.js';
import { classifyFailure, handleFetchedPage, type PageHandlerDeps } from './crawl-page-handler.js';
import type { CrawlProgress } from './crawl-progress.js';
import type { CrawlRecords, UrlEnd } from './crawl-records.js';
import type { ClaimedCrawl, CrawlCounters, FrontierRow } from './crawl-rows.js';
import { refusedStart, robotsRefusal } from './crawl-robots.js';
import { CrawlScope } from './crawl-scope.js';
import { HostScheduler } from './host-scheduler.js';

/** How runs pace and retry (config: CRAWL_*, WORKER_MAX_ATTEMPTS, WORKER_RETRY_BASE_MS). */
export interface CrawlRunSettings {
  concurrency: number;
  hostConcurrency: number;
  hostDelayMs: number;
  maxAttempts: number;
  retryBaseMs: number;
}

export interface CrawlRunDeps {
  frontier: CrawlFrontier;
  records: CrawlRecords;
  engine: CrawlEngine;
  /** Processes the pages the engine fetched (the scrape pipeline, parsers, objects). */
  executor: ScrapeExecutor;
  /** robots.txt fetches (the guarded http engine). */
  robotsFetch: DiscoveryFetcher;
  progress: CrawlProgress;
  logger: Logger;
  settings: CrawlRunSettings;
}

/** Longest a retried URL waits before its next attempt. */
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * One runner's work on one crawl while it holds the lease. It feeds the engine from the
 * frontier: claims queued URLs breadth first (never more than max_pages can still use), checks
 * robots.txt, paces each host (HostScheduler), and records every outcome. It completes the crawl
 * when max_pages is reached, the deadline passes, or the frontier runs dry; when the lease is
 * lost or the runner stops (`signal`), it just stops and leaves the crawl to the next runner.
 */
export class CrawlRun implements CrawlWork {
  /** Claimed URLs not yet ended (waiting for their host, fetching, or waiting to retry). */
  private readonly rows = new Map<string, FrontierRow>();
  private readonly hosts: HostScheduler;
  private readonly scope: CrawlScope;
  private readonly robots: RobotsCache | null;
  private readonly stopEngine = new AbortController();
  private readonly signal: AbortSignal;
  private counters: CrawlCounters;
  private ended = false;
  private frontierDry = false;
  /** URLs ended in this run: a claim that answers short is only final if none ended meanwhile. */
  private endedCount = 0;
  private wake: () => void = () => undefined;
  private handlerDeps!: PageHandlerDeps;

  constructor(
    private readonly deps: CrawlRunDeps,
    private readonly crawl: ClaimedCrawl,
    private readonly owner: string,
    outer: AbortSignal,
  ) {
    this.signal = AbortSignal.any([outer, this.stopEngine.signal]);
    this.counters = crawl.counters;
    this.hosts = new HostScheduler(deps.settings.hostConcurrency, deps.settings.hostDelayMs);
    const filter = compileUrlFilter(
      { include: crawl.includeUrls, exclude: crawl.excludeUrls },
      { include: 'include_urls', exclude: 'exclude_urls' },
    );
    this.scope = new CrawlScope({ ...crawl, filter, scopeUrl: crawl.scopeUrl });
    this.scope.rememberUrl(crawl.startUrl);
    this.robots = crawl.followRobotsTxt
      ? createRobotsCache({ fetch: deps.robotsFetch, userAgent: ROBOTS_PRODUCT_TOKEN, signal: this.signal })
      : null;
  }

  async execute(): Promise<void> {
    // Checked before anything that could fail on every attempt: a crawl must end, at the latest at its deadline.
    if (Date.now() >= this.crawl.deadlineAt.getTime()) return this.finish('timeout');
    let prepared: PreparedScrape;
    try {
      // The crawl engine fetches: only processing is prepared, and the links it follows come from it.
      prepared = this.deps.executor.prepare(
        { ...this.crawl.options, engine: undefined },
        { prefetched: true, discoverLinks: true },
      );
    } catch (err) {
      return this.finish('engine_error', `scrape_options cannot run on this worker: ${messageOf(err)}`);
    }
    this.handlerDeps = {
      ...{ crawl: this.crawl, owner: this.owner, scope: this.scope, executor: this.deps.executor, prepared },
      ...{ records: this.deps.records, counters: () => this.counters, signal: this.signal },
    };
    if (!(await this.startAllowed())) return;
    const engineRun = this.deps.engine.run(this, this.engineOptions(prepared)).catch(async (err: unknown) => {
      if (this.ended) return;
      this.deps.logger.error({ err, crawl: this.crawl.id }, 'crawl engine failed');
      await this.finish('engine_error', `the crawl engine failed: ${messageOf(err)}`);
    });
    try {
      await this.feed();
    } finally {
      this.end();
      await engineRun;
    }
  }

  next(): CrawlTarget | null {
    const row = this.ended ? null : this.hosts.take();
    return row === null ? null : { id: row.id, url: row.url, attempt: row.attempts };
  }

  isDone(): boolean {
    return this.ended;
  }

  async fetched(target: CrawlTarget, page: CrawledPage): Promise<void> {
    const row = this.rows.get(target.id);
    if (!row || this.ended) return;
    try {
      const counters = await handleFetchedPage(this.handlerDeps, row, page);
      this.settle(row, counters);
    } catch (err) {
      await this.failed(target, err);
    }
  }

  async failed(target: CrawlTarget, error: unknown): Promise<void> {
    const row = this.rows.get(target.id);
    if (!row || this.ended || this.signal.aborted) return;
    const failure = classifyFailure(error);
    if (failure.retry && row.attempts < this.deps.settings.maxAttempts) {
      row.attempts++;
      return this.retryLater(row);
    }
    await this.endRow(row, { status: 'failed', code: failure.code, message: failure.message });
  }

  private engineOptions(prepared: PreparedScrape) {
    return {
      browser: prepared.plan.browser,
      forceBrowser: this.crawl.options.engine === 'playwright',
      pageTimeoutMs: prepared.plan.timeoutMs,
      concurrency: this.deps.settings.concurrency,
      signal: this.signal,
    };
  }

  /** The feed loop: claims, waits for outcomes, and decides when the crawl is over. */
  private async feed(): Promise<void> {
    const { maxPages } = this.crawl;
    while (!this.ended) {
      if (this.signal.aborted) return;
      if (Date.now() >= this.crawl.deadlineAt.getTime()) return this.finish('timeout');
      await this.refill();
      if (this.ended) return;
      if (this.rows.size === 0) {
        if (this.counters.pagesCount >= maxPages) return this.finish('max_pages');
        if (this.frontierDry) return this.finish(...(await this.exhaustedReason()));
        continue;
      }
      await this.nextChange(Math.min(1000, this.crawl.deadlineAt.getTime() - Date.now()));
    }
  }

  private async refill(): Promise<void> {
    const { concurrency } = this.deps.settings;
    // Claims wait until a concurrency's worth is left, then take up to twice that: a claim every
    // `concurrency` pages rather than one per page ended (each claim is a statement).
    if (this.rows.size > concurrency) return;
    const room = Math.min(
      concurrency * 2 - this.rows.size,
      this.crawl.maxPages - this.counters.pagesCount - this.rows.size,
    );
    if (room <= 0 || this.frontierDry) return;
    const endedBefore = this.endedCount;
    const claimed = await this.deps.frontier.claimTargets(this.owner, this.crawl.id, room);
    // A URL that ended while the claim was answering may have opened the next depth after the
    // claim read the frontier: then a short answer says nothing, and the loop claims again.
    if (claimed.length < room && endedBefore === this.endedCount) this.frontierDry = true;
    for (const row of claimed) {
      this.rows.set(row.id, row);
      void this.admit(row);
    }
  }

  /** robots.txt, then the host's queue: the URL becomes ready when its host has a slot. */
  private async admit(row: FrontierRow): Promise<void> {
    try {
      const robots = this.robots ? await this.robots.get(row.url) : null;
      if (this.ended) return;
      if (robots && !robots.policy.isAllowed(row.url)) {
        return await this.endRow(row, { status: 'blocked', code: 'robots_disallowed', message: robotsRefusal(robots) });
      }
      this.hosts.enqueue(row, (robots?.policy.crawlDelay ?? 0) * 1000);
    } catch (err) {
      if (this.signal.aborted) return;
      await this.endRow(row, { status: 'failed', ...classifyFailure(err) });
    }
  }

  /** Records how a URL ended; when that cannot be written (the database is away), the URL is tried again later. */
  private async endRow(row: FrontierRow, end: UrlEnd): Promise<void> {
    let counters: CrawlCounters | null;
    try {
      counters = await this.deps.records.endUrl(this.owner, this.crawl.id, row.id, end);
    } catch (err) {
      this.deps.logger.warn({ err, crawl: this.crawl.id }, 'recording a crawl URL failed; trying it again later');
      return this.retryLater(row);
    }
    this.settle(row, counters);
  }

  /** Gives the URL's host slot back and admits it again after the retry delay (it stays claimed). */
  private retryLater(row: FrontierRow): void {
    this.hosts.release(row);
    const delay = Math.min(MAX_RETRY_DELAY_MS, this.deps.settings.retryBaseMs * 4 ** Math.max(0, row.attempts - 2));
    this.hosts.later(delay, () => void this.admit(row));
  }

  /** An URL ended (counters: what was recorded; null: the lease was lost, so the run stops). */
  private settle(row: FrontierRow, counters: CrawlCounters | null): void {
    this.rows.delete(row.id);
    this.hosts.release(row);
    this.endedCount++;
    if (counters === null) {
      this.end();
    } else {
      // Any URL that ends may open the next depth (claims go one depth at a time): look again.
      this.frontierDry = false;
      this.counters = counters;
      this.deps.progress.update(this.crawl, counters);
    }
    this.wake();
  }

  /** robots.txt refusing the start URL ends a fresh crawl at once, with the reason. */
  private async startAllowed(): Promise<boolean> {
    if (!this.robots || this.counters.pagesCount > 0) return true;
    const robots = await this.robots.get(this.crawl.startUrl);
    if (robots.policy.isAllowed(this.crawl.startUrl)) return true;
    const { reason, end } = refusedStart(robots);
    const [start] = await this.deps.frontier.claimTargets(this.owner, this.crawl.id, 1);
    if (start) await this.deps.records.endUrl(this.owner, this.crawl.id, start.id, end);
    await this.finish(reason, end.status === 'external' ? null : end.message);
    return false;
  }

  private async exhaustedReason(): Promise<[CrawlStopReason, string | null]> {
    if (this.counters.pagesCount > 0) return ['exhausted', null];
    const start = await this.deps.frontier.startRow(this.crawl.id);
    if (start?.status === 'failed') return ['start_failed', `the start page could not be crawled: ${start.message}`];
    if (start?.status === 'blocked') return ['robots_disallowed', start.message];
    if (start?.status === 'external' || start?.status === 'duplicate') {
      return ['exhausted', 'the start page redirected to a page the crawl does not keep'];
    }
    return ['exhausted', null];
  }

  private async finish(reason: CrawlStopReason, warning: string | null = null): Promise<void> {
    if (this.ended) return;
    this.end();
    const finished = await this.deps.records.finish(this.owner, this.crawl.id, reason, warning);
    if (finished) await this.deps.progress.finished(this.crawl, finished.counters);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.hosts.close();
    this.stopEngine.abort(new Error('crawl run ended'));
    this.wake();
  }

  /** Resolves at the next outcome, after `ms`, or when the run is stopped. */
  private nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const { signal } = this;
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = () => undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
