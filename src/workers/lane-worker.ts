import type { Container } from '../container.js';
import { JobWorker } from './queue/job-worker.js';

/** The worker for one lane's job kinds, with their handlers built on `container`. */
export function createLaneWorker(container: Container, lane: string): JobWorker {
  const kinds = container.jobs
    .filter((job) => job.lane === lane)
    .map((job) => ({
      spec: job.spec,
      handler: job.handler(),
      concurrency: job.concurrency,
      ...(job.gatherMs ? { gatherMs: job.gatherMs } : {}),
    }));
  return new JobWorker(container.queue, kinds, container.logger);
}
