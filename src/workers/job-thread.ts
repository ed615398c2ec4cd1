import os from 'node:os';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import type { AppConfig } from '../config.js';
import type { PgTarget } from '../db/embedded/embedded-database.js';
import { isEngineReply, type EngineChannel, type EngineReplyMessage } from '../engine/remote-engine.js';
import { createLogger, type Logger } from '../logger.js';
import { createPostgresPubSub } from '../pubsub/postgres-pubsub.js';
import type { PubSub } from '../pubsub/pubsub.js';
import { createThreadPubSub } from '../pubsub/thread-pubsub.js';

/** What the supervisor hands every job thread. */
export interface JobData {
  config: AppConfig;
  /** The process's database: its URL, or the embedded database's socket. */
  connection: string | PgTarget;
  /** Relay events through the parent (the process uses the in-memory pubsub). */
  relayEvents: boolean;
}

/** Messages a job thread sends its supervisor besides Bree's `done` / `cancelled`. */
export type JobMessage = { type: 'ready'; job: string };

export interface JobContext extends JobData {
  logger: Logger;
  /** Aborts when the supervisor asks the job to stop. */
  signal: AbortSignal;
  /** Names this thread in leases: `<host>:<pid>:<thread>:<job>`. */
  owner: string;
  /** The pubsub a job publishes progress events on. */
  pubsub(): Promise<PubSub>;
  /** Registers cleanup run when the job ends (last registered, first run). */
  onClose(fn: () => Promise<void>): void;
  /** Tells the supervisor the job has booted. */
  ready(): void;
  /** Reaches the browser engine of the process's main thread (see `ContainerOptions.browserChannel`). */
  browserChannel: EngineChannel;
}

/**
 * The body of every Bree job: runs `body` with what every job needs, then tells Bree how it
 * ended (`done`, or `cancelled` after a `cancel`). Each job opens only what it uses — a
 * thread's module graph costs seconds of CPU and its own memory — and stays thin.
 */
export async function runJob(name: string, body: (ctx: JobContext) => Promise<void>): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error(`job ${name} must run in a worker thread`);
  const data = (workerData as { data: JobData }).data;
  const controller = new AbortController();
  let onEngineReply: (message: EngineReplyMessage) => void = () => undefined;
  port.on('message', (message) => {
    if (message === 'cancel') controller.abort();
    else if (isEngineReply(message)) onEngineReply(message);
  });
  const closers: (() => Promise<void>)[] = [];
  const logger = createLogger(data.config, { role: 'worker', job: name });
  const ctx: JobContext = {
    ...data,
    logger,
    signal: controller.signal,
    owner: `${os.hostname()}:${process.pid}:${threadId}:${name}`,
    async pubsub() {
      if (data.relayEvents) return createThreadPubSub(port);
      const pubsub = await createPostgresPubSub(data.connection as string, logger, { listen: 'on-subscribe' });
      closers.push(() => pubsub.close());
      return pubsub;
    },
    onClose: (fn) => void closers.push(fn),
    ready: () => port.postMessage({ type: 'ready', job: name } satisfies JobMessage),
    browserChannel: {
      send: (message) => port.postMessage(message),
      onReply: (handler) => void (onEngineReply = handler),
    },
  };
  try {
    await body(ctx);
  } catch (err) {
    logger.error({ err }, 'job failed');
    throw err;
  } finally {
    for (const close of closers.reverse())
      await close().catch((err: unknown) => logger.warn({ err }, 'job cleanup failed'));
  }
  port.postMessage(controller.signal.aborted ? 'cancelled' : 'done');
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
