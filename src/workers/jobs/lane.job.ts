// Runs the jobs of one lane (the kinds its modules assigned to it) until asked to stop. Every
// lane boots the whole container (engines, pipeline, storage, modules) and builds only its own
// kinds' handlers.
import { workerData } from 'node:worker_threads';
import { createContainer } from '../../container.js';
import { runJob, type JobData } from '../job-thread.js';
import { createLaneWorker } from '../lane-worker.js';

const { lane } = (workerData as { data: JobData & { lane: string } }).data;

await runJob(lane, async (ctx) => {
  const container = await createContainer(ctx.config, {
    role: 'worker',
    logger: ctx.logger,
    connection: ctx.connection,
    migrate: false,
    pubsub: await ctx.pubsub(),
    browserChannel: ctx.browserChannel,
  });
  ctx.onClose(() => container.close());
  const worker = createLaneWorker(container, lane);
  ctx.ready();
  await worker.run(ctx.owner, ctx.signal);
});
