import Bree from 'bree';
import type { Container } from '../container.js';
import type { Logger } from '../logger.js';
import { isEngineRequest, serveEngine, type EngineServer } from '../engine/remote-engine.js';
import { isRelayedEvent } from '../pubsub/thread-pubsub.js';
import type { JobData, JobMessage } from './job-thread.js';

/** Every Bree job runs through this shim (Node 20 cannot start a .ts worker by itself). */
const SHIM = new URL('../runtime/ts-worker.mjs', import.meta.url).pathname;
const job = (file: string) => new URL(`./jobs/${file}`, import.meta.url).href;

export interface Workers {
  /** Resolves once every job thread has booted (module loading takes seconds per thread). */
  ready: Promise<void>;
  /** Jobs currently running. */
  running(): string[];
  /** Asks every job to stop (running items finish or go back to the queue), then waits. */
  stop(): Promise<void>;
}

interface JobSpec {
  name: string;
  file: string;
}

/**
 * Runs the background jobs as Bree worker threads, each with its own database pool: batch
 * runners, the webhook deliverer and maintenance (reaper, retention). Each is a loop that
 * boots once (a thread's boot costs seconds of module loading) and is restarted if it
 * crashes. Their state lives in Postgres, so any number of processes on any number of
 * machines can run them against one database.
 */
export async function startWorkers(container: Container): Promise<Workers> {
  const { config, logger, db } = container;
  const data: JobData = {
    config,
    connection: db.connection,
    relayEvents: container.pubsub.kind === 'memory',
  };
  const specs: JobSpec[] = [
    ...Array.from({ length: config.workers.threads }, (_, i) => ({
      name: `batch-runner-${i + 1}`,
      file: 'batch-runner.job.ts',
    })),
    ...Array.from({ length: config.crawls.threads }, (_, i) => ({
      name: `crawl-runner-${i + 1}`,
      file: 'crawl-runner.job.ts',
    })),
    { name: 'webhook-deliverer', file: 'webhook-deliverer.job.ts' },
    { name: 'maintenance', file: 'maintenance.job.ts' },
  ];
  let stopping = false;
  const booted = new Set<string>();
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  // Job threads render pages with this thread's browser engine: one Chromium per process.
  const engineServers = new Map<string, EngineServer>();
  const engineServer = (name: string): EngineServer => {
    let server = engineServers.get(name);
    if (!server) {
      server = serveEngine(container.engines, (reply) => bree.workers.get(name)?.postMessage(reply));
      engineServers.set(name, server);
    }
    return server;
  };
  const bree = new Bree({
    root: false,
    logger: breeLogger(logger),
    acceptedExtensions: ['.mjs'],
    jobs: specs.map((spec) => ({
      name: spec.name,
      path: SHIM,
      timeout: 0,
      worker: { workerData: { entry: job(spec.file), data } },
    })),
    workerMessageHandler: ({ name, message }: { name: string; message: unknown }) => {
      if (isEngineRequest(message)) {
        engineServer(name).handle(message);
      } else if (isRelayedEvent(message)) {
        container.pubsub
          .publish(message.event)
          .catch((err: unknown) => logger.warn({ err }, 'relaying an event failed'));
      } else if ((message as JobMessage | null)?.type === 'ready') {
        booted.add(name);
        if (booted.size === specs.length) markReady();
      }
    },
    // Threads end with code 1 when Bree terminates them after a cancel: only unexpected exits are errors.
    errorHandler: (err: unknown, meta: { name?: string }) => {
      if (!stopping) logger.error({ err, job: meta?.name }, 'worker job error');
    },
  });
  // Long-running loops come back after a crash (with a pause, so a crash loop stays cheap).
  bree.on('worker deleted', (name: string) => {
    engineServers.get(name)?.abortAll();
    engineServers.delete(name);
    const spec = specs.find((s) => s.name === name);
    if (stopping || !spec) return;
    logger.warn({ job: name }, 'worker job exited; restarting in 1 s');
    setTimeout(() => {
      if (!stopping) void bree.run(name);
    }, 1000).unref();
  });
  await bree.start();
  void ready.then(() => logger.info({ jobs: specs.map((s) => s.name) }, 'workers ready'));
  return {
    ready,
    running: () => [...bree.workers.keys()],
    async stop() {
      stopping = true;
      const grace = new Promise<void>((resolve) => setTimeout(resolve, 30_000).unref());
      await Promise.race([bree.stop(), grace]);
      for (const worker of bree.workers.values()) await worker.terminate();
    },
  };
}

/** Bree logs `(message, meta)`; pino wants `(object, message)`. */
function breeLogger(logger: Logger) {
  const adapt =
    (level: 'info' | 'warn' | 'error') =>
    (message: unknown, meta?: Record<string, unknown>): void => {
      if (message instanceof Error) logger[level]({ err: message, ...(meta ?? {}) }, message.message);
      else logger[level === 'info' ? 'debug' : level]({ ...(meta ?? {}) }, String(message));
    };
  return { info: adapt('info'), warn: adapt('warn'), error: adapt('error') };
}
