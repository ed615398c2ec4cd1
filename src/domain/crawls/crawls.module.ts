import { defineModule } from '../../module/app-module.js';
import { createEngineFetchers } from '../maps/engine-fetchers.js';
import { scrapesModule } from '../scrapes/scrapes.module.js';
import { webhooksModule } from '../webhooks/webhooks.module.js';
import { CrawlFrontierSchema } from './crawl-frontier.entity.js';
import { CrawlFrontier } from './crawl-frontier.js';
import { CrawlProgress } from './crawl-progress.js';
import { CrawlRecords } from './crawl-records.js';
import { crawlRunHandler, crawlRunKind } from './crawl-run.job.js';
import { CrawlSchema } from './crawl.entity.js';
import { CrawlService } from './crawl.service.js';
import { CRAWL_SETTINGS, crawlSettings } from './crawl.settings.js';
import { crawlGraphQL } from './crawls.graphql.js';
import { crawlRoutes } from './crawls.routes.js';

/** Crawls: one job per crawl on the queue, leased to a runner that feeds the crawl engine from the frontier. */
export const crawlsModule = defineModule({
  name: 'crawls',
  entities: [CrawlSchema, CrawlFrontierSchema],
  settings: CRAWL_SETTINGS,
  configKey: 'crawls',
  config: crawlSettings,
  services: (ctx) => {
    const { executor } = ctx.use(scrapesModule);
    const { outbox, webhookUrls } = ctx.use(webhooksModule);
    const limits = ctx.settings;
    return {
      crawls: new CrawlService({
        orm: ctx.orm,
        executor,
        guard: ctx.guard,
        pubsub: ctx.pubsub,
        queue: ctx.queue,
        webhookUrls,
        outbox,
        work: ctx.work,
        policy: {
          maxPages: limits.maxPages,
          defaultTimeoutSeconds: limits.defaultTimeoutSeconds,
          maxTimeoutSeconds: limits.maxTimeoutSeconds,
        },
      }),
      crawlRecords: new CrawlRecords(ctx.orm, ctx.queue, outbox),
      crawlProgress: new CrawlProgress(ctx.pubsub, ctx.logger),
    };
  },
  routes: ({ crawls }) => crawlRoutes({ crawls }),
  graphql: (kit, { crawls }) => crawlGraphQL(kit, crawls),
  jobs: ({ crawlRecords, crawlProgress }, ctx) => [
    {
      spec: crawlRunKind(
        ctx.config.workers.leaseMs,
        () => crawlRecords,
        () => crawlProgress,
      ),
      lane: 'crawl-runner',
      concurrency: ctx.settings.activePerThread,
      handler: () => {
        const { config, settings } = ctx;
        return crawlRunHandler({
          orm: ctx.orm,
          frontier: new CrawlFrontier(ctx.orm),
          records: crawlRecords,
          engine: ctx.crawlEngine(),
          executor: ctx.use(scrapesModule).executor,
          robotsFetch: createEngineFetchers(ctx.engines, { timeoutMs: config.scrape.timeoutMs }).discovery,
          progress: crawlProgress,
          logger: ctx.logger,
          settings: {
            concurrency: settings.concurrency,
            hostConcurrency: settings.hostConcurrency,
            hostDelayMs: settings.hostDelayMs,
            maxAttempts: config.workers.maxAttempts,
            retryBaseMs: config.workers.retryBaseMs,
          },
        });
      },
    },
  ],
  lanes: (ctx) => [{ name: 'crawl-runner', threads: ctx.settings.threads }],
});
