// Delivers due webhook events until asked to stop (see WebhookDeliverer).
import { openDatabase } from '../../db/database.js';
import { WebhookDeliverer } from '../../domain/webhooks/webhook-deliverer.js';
import { createGuardedAgents } from '../../engine/guarded-agents.js';
import { createOutboundGuard } from '../../engine/outbound-guard.js';
import { pause, runJob } from '../job-thread.js';

await runJob('webhook-deliverer', async (ctx) => {
  const db = await openDatabase(ctx.config, {
    connection: ctx.connection,
    migrate: false,
    applicationName: 'gleaner-webhooks',
  });
  ctx.onClose(() => db.close());
  const agents = createGuardedAgents(createOutboundGuard(ctx.config.outbound));
  ctx.onClose(async () => agents.destroy());
  const deliverer = new WebhookDeliverer(db.orm, agents, ctx.config.webhooks, ctx.logger);
  ctx.ready();
  while (!ctx.signal.aborted) {
    let delivered = 0;
    try {
      delivered = await deliverer.deliverDue(ctx.owner);
    } catch (err) {
      ctx.logger.warn({ err }, 'webhook delivery round failed; retrying');
      await pause(2000, ctx.signal);
    }
    if (delivered === 0) await pause(250, ctx.signal);
  }
});
