import Bree from 'bree';
import type { Container } from '../container.js';
import type { Logger } from '../logger.js';
import { isEngineRequest, serveEngine, type EngineServer } from '../engine/remote-engine.js';
import { isRelayedEvent } from '../pubsub/thread-pubsub.js';
import { moduleUrl } from '../runtime/module-url.js';
import type { JobData, JobMessage } from './job-thread.js';
import { scheduleMaintenance } from './maintenance.js';

/** Every Bree job runs through this shim (Node 20 cannot start a .ts worker by itself). */
const SHIM = new URL('../runtime/ts-worker.mjs', import.meta.url).pathname;
const LANE_JOB = moduleUrl('./jobs/lane.job.ts', import.meta.url).href;

export interface Workers {
  /** Resolves once the first look at the database is done and the threads it started have booted. */
  ready: Promise<void>;
  /** Jobs currently running. */
  running(): string[];
  /** Asks every job to stop (running items finish or go back to the queue), then waits. */
  stop(): Promise<void>;
}

/** One job thread: its Bree name and the lane whose jobs it runs. */
interface ThreadSpec {
  name: string;
  lane: string;
}

/** How often the supervisor looks at the database for work (work queued here wakes it at once). */
const POLL_MS = 1000;
/** The first maintenance round of an hour is due this long after the process starts (a boot has enough to do). */
const FIRST_PURGE_AFTER_MS = 300_000;
/** A job thread that ends without being asked to is started again after this pause. */
const RESTART_PAUSE_MS = 1000;

/**
 * Runs the background jobs as Bree worker threads, each with its own database pool. Modules
 * declare job kinds and the lanes (groups of threads) that run them: batch runners, crawl
 * runners, the webhook deliverer, maintenance. Their state is the one job queue in Postgres, so
 * any number of processes on any number of machines can run them against one database.
 *
 * A thread costs ~100 MB of memory (its own module graph and heap) and seconds of CPU to boot,
 * so threads run only while there is work for them: once a second (and at once when this
 * process's API queues work) the supervisor asks the queue which kinds of jobs are pending
 * (`JobQueue.pendingKinds`, one query), starts the threads of the lanes that run them, and stops
 * a lane's threads gracefully after `WORKER_IDLE_STOP_MS` without any. `WORKER_IDLE_STOP_MS=0`
 * keeps every thread running. A thread that ends without being asked to is restarted while its
 * lane has work. Each hour it queues that hour's maintenance round (one job, whoever queues it).
 */
export async function startWorkers(container: Container): Promise<Workers> {
  const { config, logger, db, queue } = container;
  const data: JobData = {
    config,
    connection: db.connection,
    relayEvents: container.pubsub.kind === 'memory',
  };
  const specs: ThreadSpec[] = container.lanes.flatMap((lane) =>
    lane.single
      ? [{ name: lane.name, lane: lane.name }]
      : Array.from({ length: lane.threads }, (_, i) => ({ name: `${lane.name}-${i + 1}`, lane: lane.name })),
  );
  const kindsOf = new Map<string, string[]>();
  for (const job of container.jobs) {
    if (job.concurrency > 0) kindsOf.set(job.lane, [...(kindsOf.get(job.lane) ?? []), job.spec.kind]);
  }
  const idleStopMs = config.workers.idleStopMs;
  let closed = false;
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
  // When each lane last had work (absent: never); a lane is wanted until idleStopMs after that.
  const lastWork = new Map<string, number>();
  const wanted = (lane: string) =>
    kindsOf.has(lane) && (idleStopMs === 0 || Date.now() - (lastWork.get(lane) ?? -Infinity) < idleStopMs);
  const started = Date.now();
  let maintenanceHour = -1;
  /** Threads asked to stop for want of work; their exit is not a crash. */
  const stopping = new Set<string>();
  const restarts = new Map<string, NodeJS.Timeout>();
  /** Resolves a started thread's boot promise when it says it is ready (or exits first). */
  const booting = new Map<string, () => void>();
  const bree = new Bree({
    root: false,
    logger: breeLogger(logger),
    acceptedExtensions: ['.mjs'],
    jobs: specs.map((spec) => ({
      name: spec.name,
      path: SHIM,
      worker: { workerData: { entry: LANE_JOB, data: { ...data, lane: spec.lane } } },
    })),
    workerMessageHandler: ({ name, message }: { name: string; message: unknown }) => {
      if (isEngineRequest(message)) {
        engineServer(name).handle(message);
      } else if (isRelayedEvent(message)) {
        container.pubsub
          .publish(message.event)
          .catch((err: unknown) => logger.warn({ err }, 'relaying an event failed'));
      } else if ((message as JobMessage | null)?.type === 'ready') {
        booting.get(name)?.();
      }
    },
    // Threads end with code 1 when Bree terminates them after a cancel: only unexpected exits are errors.
    errorHandler: (err: unknown, meta: { name?: string }) => {
      if (!closed && !stopping.has(meta?.name ?? '')) logger.error({ err, job: meta?.name }, 'worker job error');
    },
  });

  const start = (spec: ThreadSpec): Promise<void> => {
    const booted = new Promise<void>((resolve) => booting.set(spec.name, resolve));
    void bree.run(spec.name).catch((err: unknown) => {
      logger.error({ err, job: spec.name }, 'starting a job thread failed');
      booting.get(spec.name)?.();
    });
    logger.info({ job: spec.name }, 'job thread started');
    return booted;
  };
  const stopIdle = (spec: ThreadSpec) => {
    stopping.add(spec.name);
    logger.info({ job: spec.name, idle_ms: idleStopMs }, 'job thread stopping: no work');
    bree
      .stop(spec.name)
      .catch((err: unknown) => logger.warn({ err, job: spec.name }, 'stopping a job thread failed'))
      .finally(() => stopping.delete(spec.name));
  };

  bree.on('worker deleted', (name: string) => {
    booting.get(name)?.();
    booting.delete(name);
    engineServers.get(name)?.abortAll();
    engineServers.delete(name);
    const spec = specs.find((s) => s.name === name);
    if (closed || !spec || stopping.has(name)) return;
    if (!wanted(spec.lane)) return;
    // A loop that ended by itself crashed: it comes back (with a pause, so a crash loop stays cheap).
    logger.warn({ job: name }, 'worker job exited; restarting in 1 s');
    restarts.set(
      name,
      setTimeout(() => {
        restarts.delete(name);
        if (!closed && wanted(spec.lane) && !bree.workers.has(name)) void start(spec);
      }, RESTART_PAUSE_MS),
    );
  });

  /** Starts the threads of the lanes that have work, stops those idle for idleStopMs. */
  const reconcile = async (): Promise<Promise<void>[]> => {
    const now = Date.now();
    const hour = Math.floor(now / 3_600_000);
    if (hour !== maintenanceHour) {
      // This hour's round: due 5 minutes after the process started, else at once.
      await scheduleMaintenance(queue, new Date(now), Math.max(0, started + FIRST_PURGE_AFTER_MS - now));
      maintenanceHour = hour;
    }
    if (idleStopMs > 0) {
      const pending = await queue.pendingKinds(idleStopMs);
      for (const [lane, kinds] of kindsOf) if (kinds.some((k) => pending.has(k))) lastWork.set(lane, now);
    }
    const booted: Promise<void>[] = [];
    for (const spec of specs) {
      const running = bree.workers.has(spec.name);
      if (wanted(spec.lane)) {
        if (!running && !restarts.has(spec.name) && !closed) booted.push(start(spec));
      } else if (running && !stopping.has(spec.name)) {
        stopIdle(spec);
      }
    }
    return booted;
  };

  let rounds: Promise<unknown> = Promise.resolve();
  let queued = false;
  /** One reconcile at a time; calls while one runs fold into one more after it. */
  const poke = (): Promise<Promise<void>[]> => {
    if (queued) return rounds.then(() => []);
    queued = true;
    const round = rounds.then(async () => {
      queued = false;
      if (closed) return [];
      try {
        return await reconcile();
      } catch (err) {
        logger.warn({ err }, 'looking for background work failed; trying again');
        return [];
      }
    });
    rounds = round;
    return round;
  };

  const ready = poke().then(async (booted) => {
    await Promise.all(booted);
  });
  const timer = idleStopMs > 0 ? setInterval(() => void poke(), POLL_MS) : null;
  const unlisten = container.work.listen(() => void poke());
  void ready.then(() => logger.info({ jobs: [...bree.workers.keys()] }, 'workers ready'));
  return {
    ready,
    running: () => [...bree.workers.keys()],
    async stop() {
      closed = true;
      if (timer) clearInterval(timer);
      unlisten();
      for (const restart of restarts.values()) clearTimeout(restart);
      await rounds.catch(() => undefined);
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
