import { Worker, type WorkerOptions } from 'node:worker_threads';

const SHIM = new URL('./ts-worker.mjs', import.meta.url);

/**
 * Starts a worker thread running a TypeScript module (through the tsx shim), so it works
 * the same under `npm start`, vitest and compiled deployments.
 */
export function startTsWorker(
  entry: URL,
  options: Omit<WorkerOptions, 'workerData'> & { data?: unknown } = {},
): Worker {
  const { data, ...rest } = options;
  return new Worker(SHIM, { ...rest, workerData: { entry: entry.href, data } });
}
