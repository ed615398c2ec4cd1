// Returns work of dead workers to the queues (expired leases) every few seconds, and deletes
// what outlived RETENTION_DAYS when it starts and every hour after, until asked to stop. The
// supervisor runs it while batch items or webhook deliveries are pending, and at least hourly.
import { openDatabase } from '../../db/database.js';
import { BatchQueue } from '../../domain/batches/batch-queue.js';
import { RetentionService } from '../../domain/maintenance/retention.service.js';
import { PageContentStore } from '../../domain/pages/page-content.js';
import { signingSecret } from '../../domain/settings/settings.service.js';
import { reapWebhookEvents } from '../../domain/webhooks/webhook-deliverer.js';
import { WebhookOutbox } from '../../domain/webhooks/webhook-outbox.js';
import { createBlobStore } from '../../storage/create-blob-store.js';
import { pause, runJob } from '../job-thread.js';

const PURGE_EVERY_MS = 3_600_000;

await runJob('maintenance', async (ctx) => {
  const { config, logger } = ctx;
  const db = await openDatabase(config, {
    connection: ctx.connection,
    migrate: false,
    applicationName: 'gleaner-maintenance',
  });
  ctx.onClose(() => db.close());
  const secret = await signingSecret(db.orm, config.signingSecret);
  const blobs = await createBlobStore(config, {
    dataDir: config.dataDir,
    secret,
    baseUrl: () => '',
    databaseFlushes: db.flushesCommits,
  });
  const queue = new BatchQueue(db.orm, config.workers, new WebhookOutbox());
  const content = new PageContentStore(blobs, {
    hostedUrlTtlSeconds: config.scrape.hostedUrlTtlSeconds,
    inlineLimitBytes: config.scrape.inlineContentLimitBytes,
  });
  const retention = new RetentionService({ orm: db.orm, content, retentionDays: config.retentionDays, logger });
  const reapEveryMs = Math.max(1000, Math.min(10_000, config.workers.leaseMs / 3));
  let nextPurge = Date.now();
  ctx.ready();
  while (!ctx.signal.aborted) {
    try {
      const batches = await queue.reap();
      const webhooks = await reapWebhookEvents(db.orm);
      if (batches.requeued + batches.failed.length + webhooks > 0) {
        logger.info(
          { items_requeued: batches.requeued, items_failed: batches.failed.length, webhooks_requeued: webhooks },
          'reaped expired leases',
        );
      }
      if (Date.now() >= nextPurge) {
        nextPurge = Date.now() + PURGE_EVERY_MS;
        await retention.purge();
      }
    } catch (err) {
      logger.warn({ err }, 'maintenance round failed; retrying');
    }
    await pause(reapEveryMs, ctx.signal);
  }
});
