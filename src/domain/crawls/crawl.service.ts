import type { Orm } from '../../db/orm.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { parseTargetUrl } from '../../engine/target-url.js';
import { AppError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import { compileUrlFilter, type UrlFilterDecision } from '../../url/glob.js';
import { dedupeKey, normalizeUrl } from '../../url/normalize.js';
import type { Actor } from '../auth/actor.js';
import type { ScrapeExecutor } from '../scrapes/scrape-executor.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-url.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import { CRAWL_JOB } from './crawl-run.job.js';
import type { WorkSignal } from '../../workers/work-signal.js';
import { CrawlPagesReader } from './crawl-pages.js';
import { crawlView, type CrawlPagesView, type CrawlView } from './crawl.view.js';
import type { CrawlProgressEvent } from '../../pubsub/events.js';
import { progressEvent } from './crawl-progress.js';
import { cancelCrawl } from './crawl-cancel.js';
import { toCounters } from './crawl-rows.js';
import { Crawl } from './crawl.entity.js';
import { CRAWL_LIMITS, type CreateCrawlCommand, type PreviewCrawlFilterCommand } from './crawl.schema.js';

/** Server caps on what a crawl may ask for (CRAWL_MAX_PAGES, CRAWL_*_TIMEOUT_S). */
export interface CrawlPolicy {
  maxPages: number;
  defaultTimeoutSeconds: number;
  maxTimeoutSeconds: number;
}

export interface CrawlServiceDeps {
  orm: Orm;
  /** The scrape executor of the process: validates scrape_options against the engines that exist here. */
  executor: ScrapeExecutor;
  guard: OutboundGuard;
  pubsub: PubSub;
  queue: JobQueue;
  webhookUrls: WebhookUrlPolicy;
  /** Where a cancelled crawl's `crawl.cancelled` event goes. */
  outbox: WebhookOutbox;
  policy: CrawlPolicy;
  /** Wakes this process's job supervisor when a crawl is queued. */
  work?: WorkSignal;
}

/** One URL's verdict in a filter preview. */
export interface FilterPreviewResult extends UrlFilterDecision {
  url: string;
}

/** Path globs: every URL's path matches, so the default include keeps everything. */
export const DEFAULT_INCLUDE = ['/**'];

/**
 * Crawls: accepted at once (the crawl row and its start URL), run by the crawl runners, read
 * back while they run (GET, pages with cursor paging).
 */
export class CrawlService {
  /** The crawl's view; a rules-only llm_extract adds its warning to the crawl's own. */
  private view(crawl: Crawl): CrawlView {
    const view = crawlView(crawl);
    const json = this.deps.executor.jsonWarning(crawl.options);
    return json ? { ...view, warning: view.warning ? `${view.warning}; ${json}` : json } : view;
  }
  private readonly pagesReader: CrawlPagesReader;

  constructor(private readonly deps: CrawlServiceDeps) {
    this.pagesReader = new CrawlPagesReader(deps.orm);
  }

  async create(actor: Actor, command: CreateCrawlCommand): Promise<CrawlView> {
    const { policy } = this.deps;
    const startUrl = await this.checkStartUrl(command.start_url);
    if (command.max_pages > policy.maxPages) {
      throw field('max_pages', `must be at most ${policy.maxPages} on this server`);
    }
    const timeoutSeconds = Math.ceil(command.timeout ?? policy.defaultTimeoutSeconds);
    if (timeoutSeconds > policy.maxTimeoutSeconds) {
      throw field('timeout', `must be at most ${policy.maxTimeoutSeconds} seconds on this server`);
    }
    const includeUrls = command.include_urls ?? DEFAULT_INCLUDE;
    const excludeUrls = command.exclude_urls ?? [];
    compileUrlFilter(
      { include: includeUrls, exclude: excludeUrls },
      { include: 'include_urls', exclude: 'exclude_urls' },
    );
    const webhook = await this.checkWebhook(command);
    const options = command.scrape_options ?? {};
    this.deps.executor.prepare(options); // formats, parser, engine: refused before anything is stored
    const now = new Date();
    const crawl = Object.assign(new Crawl(), {
      id: newId('crawl'),
      teamId: actor.teamId,
      startUrl,
      scopeUrl: startUrl,
      maxPages: command.max_pages,
      maxDepth: command.max_depth ?? null,
      includeUrls,
      excludeUrls,
      includeExternal: command.include_external ?? false,
      includeSubdomain: command.include_subdomain ?? false,
      searchQuery: command.search_query?.trim() || null,
      topN: command.top_n ?? null,
      followRobotsTxt: command.follow_robots_txt ?? true,
      timeoutSeconds,
      options,
      webhook,
      frontierCount: 1,
      createdAt: now,
      deadlineAt: new Date(now.getTime() + timeoutSeconds * 1000),
    });
    await this.deps.orm.em.fork().transactional(async (em) => {
      em.persist(crawl);
      await em.flush();
      await em.getConnection().execute(
        `insert into crawl_frontier (id, crawl_id, url_key, url, depth, seq, is_external, status, attempts)
         values (?, ?, ?, ?, 0, 0, false, 'queued', 0)`,
        [newId('page'), crawl.id, dedupeKey(startUrl), startUrl],
        'run',
        em.getTransactionContext(),
      );
      // The crawl is one job on the queue (same id), leased to one runner at a time.
      await this.deps.queue.enqueue([{ id: crawl.id, kind: CRAWL_JOB, teamId: crawl.teamId }], em);
    });
    this.deps.work?.notify();
    await this.deps.pubsub.publish(progressEvent(crawl, { ...crawl, status: crawl.status }));
    return this.view(crawl);
  }

  async get(actor: Actor, id: string): Promise<CrawlView> {
    return this.view(await this.find(actor, id));
  }

  /** The crawl's progress now (404 for another team's crawl): the first event a subscriber gets. */
  async progress(actor: Actor, id: string): Promise<CrawlProgressEvent> {
    const crawl = await this.find(actor, id);
    return progressEvent(crawl, crawl);
  }

  /**
   * Cancels a crawl in progress (`cancelCrawl`): its runner records nothing more (pages it is
   * fetching are refused, URLs still queued are never fetched), the crawl ends `cancelled` with
   * the pages it had, its webhook gets `crawl.cancelled` and subscribers a last progress event.
   * Cancelling a cancelled crawl returns it unchanged; a completed crawl is a 409.
   */
  async cancel(actor: Actor, id: string): Promise<CrawlView> {
    const result = await this.deps.orm.em.fork().transactional((em) => cancelCrawl(em, this.deps, actor.teamId, id));
    if (!result) throw errors.notFound('crawl', id);
    const crawl = await this.find(actor, id);
    if (crawl.status !== 'cancelled') {
      throw new AppError(
        'conflict',
        'crawl_not_in_progress',
        `crawl ${id} is ${crawl.status}: only a crawl in progress can be cancelled`,
      );
    }
    if (result.cancelledNow) await this.deps.pubsub.publish(progressEvent(crawl, toCounters(result.row)));
    return this.view(crawl);
  }

  private async find(actor: Actor, id: string): Promise<Crawl> {
    const crawl = await this.deps.orm.em.fork().findOne(Crawl, { id, teamId: actor.teamId });
    if (!crawl) throw errors.notFound('crawl', id);
    return crawl;
  }

  async list(
    actor: Actor,
    query: { cursor?: number; limit?: number },
  ): Promise<{ crawls: CrawlView[]; nextCursor: number | null }> {
    const limit = query.limit ?? CRAWL_LIMITS.pageSize.default;
    const offset = query.cursor ?? 0;
    const [crawls, total] = await this.deps.orm.em
      .fork()
      .findAndCount(Crawl, { teamId: actor.teamId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset });
    return {
      crawls: crawls.map((crawl) => this.view(crawl)),
      nextCursor: offset + crawls.length < total ? offset + crawls.length : null,
    };
  }

  /** The crawl's pages in the order they were recorded; readable while the crawl runs. */
  async pages(
    actor: Actor,
    id: string,
    query: { cursor?: number; limit?: number; search_query?: string },
  ): Promise<CrawlPagesView> {
    const crawl = await this.find(actor, id);
    const page = await this.pagesReader.read(crawl, {
      offset: query.cursor ?? 0,
      limit: query.limit ?? CRAWL_LIMITS.pageSize.default,
      searchQuery: query.search_query?.trim() || null,
    });
    return {
      crawlId: crawl.id,
      status: crawl.status,
      pages: page.pages,
      pagesCount: page.total,
      externalUrls: page.externalUrls,
      failedUrls: page.failedUrls,
      cursor: page.nextCursor,
    };
  }

  /** Which of `urls` a filter set keeps, and the pattern that decided (the crawl's exact semantics). */
  preview(command: PreviewCrawlFilterCommand): {
    includeUrls: string[];
    excludeUrls: string[];
    results: FilterPreviewResult[];
  } {
    const includeUrls = command.include_urls ?? DEFAULT_INCLUDE;
    const excludeUrls = command.exclude_urls ?? [];
    const filter = compileUrlFilter(
      { include: includeUrls, exclude: excludeUrls },
      { include: 'include_urls', exclude: 'exclude_urls' },
    );
    const results = command.urls.map((url) => ({ url, ...filter.explain(normalizeUrl(url) ?? url) }));
    return { includeUrls, excludeUrls, results };
  }

  /** A public http(s) URL: 400 for syntax, 403 when the outbound policy refuses it (a name resolving privately too). */
  private async checkStartUrl(input: string): Promise<string> {
    const target = parseTargetUrl(input, 'start_url');
    try {
      await this.deps.guard.assertAllowed(target);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.kind, err.code, `start_url: ${err.detail}`);
      // A name that does not resolve (yet) is not refused: the crawl ends with the reason (start_failed).
      if (typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
    }
    return normalizeUrl(target) ?? target.href;
  }

  private async checkWebhook(command: CreateCrawlCommand): Promise<string | null> {
    const hook = command.webhook ?? command.webhook_url;
    if (!hook) return null;
    return this.deps.webhookUrls.validate(hook, command.webhook !== undefined ? 'webhook' : 'webhook_url');
  }
}

function field(name: string, problem: string): AppError {
  return new AppError('validation', 'validation_error', `${name}: ${problem}`, { metadata: { field: name } });
}
