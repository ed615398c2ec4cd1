import { exec } from '../../db/sql.js';
import { createGuardedAgents } from '../../engine/guarded-agents.js';
import { BACKGROUND_LANE, defineModule } from '../../module/app-module.js';
import { WebhookAttemptSchema } from './webhook-attempt.entity.js';
import { webhookDeliveryHandler, webhookDeliveryKind } from './webhook-deliverer.js';
import { WebhookEventSchema } from './webhook-event.entity.js';
import { WebhookOutbox } from './webhook-outbox.js';
import { WebhookUrlPolicy } from './webhook-url.js';
import { WEBHOOK_SETTINGS, webhookSettings } from './webhook.settings.js';
import { WebhookService } from './webhook.service.js';
import { webhookRoutes } from './webhooks.routes.js';

/**
 * Webhooks: the outbox other modules write events to (in their own transactions), their
 * delivery as jobs on the queue (the spec's envelope and retry schedule, optional Standard
 * Webhooks signatures), and the delivery records clients can read and redeliver.
 */
export const webhooksModule = defineModule({
  name: 'webhooks',
  entities: [WebhookEventSchema, WebhookAttemptSchema],
  settings: WEBHOOK_SETTINGS,
  configKey: 'webhooks',
  config: webhookSettings,
  services: (ctx) => ({
    webhooks: new WebhookService(ctx.orm, ctx.queue),
    outbox: new WebhookOutbox(ctx.queue),
    webhookUrls: new WebhookUrlPolicy(ctx.guard, ctx.settings.allowHttp),
  }),
  routes: ({ webhooks }) => webhookRoutes({ webhooks }),
  jobs: (_, ctx) => [
    {
      spec: webhookDeliveryKind(ctx.settings),
      lane: BACKGROUND_LANE,
      concurrency: 10,
      handler: () => {
        const agents = createGuardedAgents(ctx.guard);
        return webhookDeliveryHandler(ctx.orm, agents, ctx.settings, ctx.logger);
      },
    },
  ],
  maintenance: (_, { orm, config }) => [
    // Settled events older than RETENTION_DAYS go with their attempts.
    async (now) => {
      const cutoff = new Date(now.getTime() - config.retentionDays * 86_400_000);
      const rows = await exec(
        orm.em.fork(),
        `delete from webhook_events where created_at < ? and status in ('delivered', 'failed') returning id`,
        [cutoff],
      );
      return { webhookEvents: rows.length };
    },
  ],
});
