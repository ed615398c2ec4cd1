// Runs batch items until asked to stop (see BatchRunner). The only job that scrapes, so the
// only one that boots the whole container (engines, pipeline, storage).
import { createContainer } from '../../container.js';
import { runJob } from '../job-thread.js';

await runJob('batch-runner', async (ctx) => {
  const container = await createContainer(ctx.config, {
    role: 'worker',
    logger: ctx.logger,
    connection: ctx.connection,
    migrate: false,
    pubsub: await ctx.pubsub(),
    browserChannel: ctx.browserChannel,
  });
  ctx.onClose(() => container.close());
  ctx.ready();
  await container.services.batchRunner.run(ctx.owner, ctx.signal);
});
