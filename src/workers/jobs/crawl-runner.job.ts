// Runs crawls until asked to stop (see CrawlRunner): boots the whole container (engines,
// pipeline, storage), as the batch runner does. Crawlee itself loads on the first crawl.
import { createContainer } from '../../container.js';
import { runJob } from '../job-thread.js';

await runJob('crawl-runner', async (ctx) => {
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
  await container.services.crawlRunner.run(ctx.owner, ctx.signal);
});
