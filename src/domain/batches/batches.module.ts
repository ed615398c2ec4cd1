import { exec } from '../../db/sql.js';
import { defineModule } from '../../module/app-module.js';
import { filesModule } from '../files/files.module.js';
import { scrapesModule } from '../scrapes/scrapes.module.js';
import { webhooksModule } from '../webhooks/webhooks.module.js';
import { BatchItemSchema } from './batch-item.entity.js';
import { batchItemHandler, batchItemKind } from './batch-item.job.js';
import { BatchLedger } from './batch-ledger.js';
import { BatchSchema } from './batch.entity.js';
import { BatchService } from './batch.service.js';
import { batchGraphQL } from './batches.graphql.js';
import { batchRoutes } from './batches.routes.js';

/** Batches: up to 10,000 URLs accepted at once, each item a job on the queue, run like a scrape. */
export const batchesModule = defineModule({
  name: 'batches',
  entities: [BatchSchema, BatchItemSchema],
  services: (ctx) => {
    const { executor } = ctx.use(scrapesModule);
    const { outbox, webhookUrls } = ctx.use(webhooksModule);
    return {
      batches: new BatchService({
        orm: ctx.orm,
        executor,
        guard: ctx.guard,
        pubsub: ctx.pubsub,
        queue: ctx.queue,
        webhookUrls,
        outbox,
        work: ctx.work,
        files: ctx.use(filesModule).files,
      }),
      batchLedger: new BatchLedger(ctx.orm, ctx.queue, outbox),
    };
  },
  routes: ({ batches }) => batchRoutes({ batches }),
  graphql: (kit, { batches }) => batchGraphQL(kit, batches),
  jobs: ({ batchLedger }, ctx) => {
    const { workers } = ctx.config;
    const settings = {
      leaseMs: workers.leaseMs,
      maxAttempts: workers.maxAttempts,
      retryBaseMs: workers.retryBaseMs,
      hostConcurrency: workers.hostConcurrency,
    };
    return [
      {
        spec: batchItemKind(settings, () => batchLedger),
        lane: 'batch-runner',
        concurrency: workers.concurrency,
        handler: () =>
          batchItemHandler({
            orm: ctx.orm,
            ledger: batchLedger,
            executor: ctx.use(scrapesModule).executor,
            pubsub: ctx.pubsub,
            logger: ctx.logger,
            settings,
          }),
      },
    ];
  },
  lanes: (ctx) => [{ name: 'batch-runner', threads: ctx.config.workers.threads }],
  maintenance: (_, { orm, config }) => [
    // Finished batches older than RETENTION_DAYS go with their items.
    async (now) => {
      const cutoff = new Date(now.getTime() - config.retentionDays * 86_400_000);
      const rows = await exec(
        orm.em.fork(),
        `delete from batches where created_at < ? and status <> 'in_progress' returning id`,
        [cutoff],
      );
      return { batches: rows.length };
    },
  ],
});
