import type { AppConfig } from '../../config.js';
import type { Orm } from '../../db/orm.js';
import type { DiscoveryFetcher } from '../../discovery/types.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import type { Logger } from '../../logger.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { ScrapeExecutor } from '../scrapes/scrape-executor.js';
import { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { CrawlEngine } from './crawl-engine.js';
import { CrawlLeases } from './crawl-leases.js';
import { CrawlProgress } from './crawl-progress.js';
import { CrawlRecords } from './crawl-records.js';
import { CrawlRunner } from './crawl-runner.js';
import { CrawlService } from './crawl.service.js';
import type { SnapshotExecutor } from './snapshot-executor.js';
import type { WorkSignal } from '../work-signal.js';

export interface CrawlWiring {
  orm: Orm;
  /** The process's scrape executor (validates scrape_options against the engines that exist here). */
  executor: ScrapeExecutor;
  /** Converts and stores pages the crawl engine fetched (the same pipeline and parsers). */
  snapshots: SnapshotExecutor;
  engine: CrawlEngine;
  /** robots.txt fetches through the guarded http engine. */
  robotsFetch: DiscoveryFetcher;
  guard: OutboundGuard;
  pubsub: PubSub;
  logger: Logger;
  settings: Pick<AppConfig, 'crawls' | 'workers' | 'webhooks'>;
  /** Wakes this process's job supervisor when a crawl is queued. */
  work?: WorkSignal;
}

/**
 * The crawl service (API side) and the crawl runner (worker side) on the composition root's parts.
 *
 * @example
 * const { service, runner } = createCrawlServices({ orm, executor, snapshots, engine, robotsFetch, guard, pubsub, logger, settings: config });
 */
export function createCrawlServices(wiring: CrawlWiring): { service: CrawlService; runner: CrawlRunner } {
  const { orm, settings, logger } = wiring;
  const { crawls, workers } = settings;
  const leases = new CrawlLeases(orm, workers.leaseMs);
  const service = new CrawlService({
    orm,
    executor: wiring.executor,
    guard: wiring.guard,
    pubsub: wiring.pubsub,
    allowHttpWebhooks: settings.webhooks.allowHttp,
    work: wiring.work,
    policy: {
      maxPages: crawls.maxPages,
      defaultTimeoutSeconds: crawls.defaultTimeoutSeconds,
      maxTimeoutSeconds: crawls.maxTimeoutSeconds,
    },
  });
  const runner = new CrawlRunner({
    leases,
    records: new CrawlRecords(orm, new WebhookOutbox()),
    engine: wiring.engine,
    snapshots: wiring.snapshots,
    robotsFetch: wiring.robotsFetch,
    progress: new CrawlProgress(wiring.pubsub, logger),
    logger,
    activeCrawls: crawls.activePerThread,
    settings: {
      concurrency: crawls.concurrency,
      hostConcurrency: crawls.hostConcurrency,
      hostDelayMs: crawls.hostDelayMs,
      maxAttempts: workers.maxAttempts,
      retryBaseMs: workers.retryBaseMs,
    },
  });
  return { service, runner };
}
