import { createCrawleeEngine } from '../engines/crawlee/crawlee.engine.js';
import { builtinParsers } from '../plugins/parsers/index.js';
import type { AppConfig } from './config.js';
import type { Database } from './db/database.js';
import { ApiKeyService } from './domain/auth/api-key.service.js';
import { AuthService } from './domain/auth/auth.service.js';
import { createJwtVerifier } from './domain/auth/jwt-verifier.js';
import { BatchQueue } from './domain/batches/batch-queue.js';
import { BatchRunner } from './domain/batches/batch-runner.js';
import { BatchService } from './domain/batches/batch.service.js';
import type { CrawlRunner } from './domain/crawls/crawl-runner.js';
import { createCrawlServices } from './domain/crawls/crawl-wiring.js';
import type { CrawlService } from './domain/crawls/crawl.service.js';
import { createSnapshotExecutor } from './domain/crawls/snapshot-executor.js';
import { IdempotencyService } from './domain/idempotency/idempotency.service.js';
import { createEngineFetchers } from './domain/maps/engine-fetchers.js';
import { createMapService, type MapService } from './domain/maps/map.service.js';
import { PageContentStore } from './domain/pages/page-content.js';
import { PageViews } from './domain/pages/page-views.js';
import { ScrapeExecutor } from './domain/scrapes/scrape-executor.js';
import { ScrapeService } from './domain/scrapes/scrape.service.js';
import { WebhookOutbox } from './domain/webhooks/webhook-outbox.js';
import { WebhookService } from './domain/webhooks/webhook.service.js';
import type { OutboundGuard } from './engine/outbound-guard.js';
import { createProxyPool } from './engine/proxy-pool.js';
import type { EngineRegistry } from './engine/registry.js';
import type { Logger } from './logger.js';
import { createParserRegistry } from './parsers/parser.js';
import type { ContentPipeline } from './pipeline/content-pipeline.js';
import type { WorkSignal } from './domain/work-signal.js';
import type { ConvertPool } from './pipeline/convert-pool.js';
import type { PubSub } from './pubsub/pubsub.js';
import type { BlobStore } from './storage/blob-store.js';

/** Every use case, wired once per process (or worker thread). */
export interface Services {
  auth: AuthService;
  apiKeys: ApiKeyService;
  idempotency: IdempotencyService;
  scrapes: ScrapeService;
  pages: PageViews;
  /** Fetch → convert → store of one URL; shared by scrapes, batch items and crawl pages. */
  executor: ScrapeExecutor;
  batches: BatchService;
  batchQueue: BatchQueue;
  batchRunner: BatchRunner;
  webhooks: WebhookService;
  maps: MapService;
  crawls: CrawlService;
  crawlRunner: CrawlRunner;
}

export interface ServiceDeps {
  config: AppConfig;
  db: Database;
  pubsub: PubSub;
  blobs: BlobStore;
  guard: OutboundGuard;
  engines: EngineRegistry;
  logger: Logger;
  /** HMAC secret of the deployment (map cursors). */
  secret: string;
  /** The content pipeline (shared with the conversion pool's work sharing). */
  pipeline: ContentPipeline;
  /** Conversion threads for the API process; null converts inline. */
  convertPool: ConvertPool | null;
  /** Told when a batch or crawl is queued (the process's job supervisor listens). */
  work?: WorkSignal;
}

/** Builds the services from the infrastructure the container opened. */
export function createServices(deps: ServiceDeps): Services {
  const { config, db, pubsub, blobs, guard, engines, logger, secret, pipeline, convertPool, work } = deps;
  const { orm } = db;
  const auth = new AuthService({ orm, verifyJwt: config.auth.jwt ? createJwtVerifier(config.auth.jwt) : null });
  const content = new PageContentStore(blobs, {
    hostedUrlTtlSeconds: config.scrape.hostedUrlTtlSeconds,
    inlineLimitBytes: config.scrape.inlineContentLimitBytes,
  });
  const pages = new PageViews(orm, content);
  const parsers = createParserRegistry(builtinParsers);
  const executor = new ScrapeExecutor({
    engines,
    guard,
    pipeline,
    parsers,
    pages: content,
    timeoutMs: config.scrape.timeoutMs,
    convertPool,
    proxies: createProxyPool(config.proxies),
  });
  const crawls = createCrawlServices({
    orm,
    executor,
    snapshots: createSnapshotExecutor({ guard, pipeline, parsers, pages: content, timeoutMs: config.scrape.timeoutMs }),
    engine: createCrawleeEngine({ engines, dataDir: config.dataDir, browserSlots: config.browser.poolSize }),
    robotsFetch: createEngineFetchers(engines, { timeoutMs: config.scrape.timeoutMs }).discovery,
    guard,
    pubsub,
    logger,
    settings: config,
    work,
  });
  const batchQueue = new BatchQueue(orm, config.workers, new WebhookOutbox());
  return {
    auth,
    apiKeys: new ApiKeyService(auth, pubsub),
    idempotency: new IdempotencyService(orm, { ttlSeconds: config.idempotencyTtlSeconds }),
    scrapes: new ScrapeService(orm, executor, pages),
    pages,
    executor,
    batches: new BatchService({ orm, executor, guard, pubsub, allowHttpWebhooks: config.webhooks.allowHttp, work }),
    batchQueue,
    batchRunner: new BatchRunner({
      orm,
      queue: batchQueue,
      executor,
      pubsub,
      logger,
      concurrency: config.workers.concurrency,
    }),
    webhooks: new WebhookService(orm),
    maps: createMapService({
      orm,
      blobs,
      engines,
      guard,
      secret,
      limits: config.map,
      fetchTimeoutMs: config.scrape.timeoutMs,
    }),
    crawls: crawls.service,
    crawlRunner: crawls.runner,
  };
}
