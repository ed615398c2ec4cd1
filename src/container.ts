import { readFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { builtinTransformers } from '../plugins/transformers/index.js';
import { publicBaseUrl, type AppConfig, type Role } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import type { PgTarget } from './db/embedded/embedded-database.js';
import { createLiveConnections, type LiveConnections } from './domain/auth/live-connections.js';
import { signingSecret } from './domain/settings/settings.service.js';
import { createOutboundGuard, type OutboundGuard, type Resolver } from './engine/outbound-guard.js';
import { createProxyPool } from './engine/proxy-pool.js';
import { createEngineRegistry, type EngineRegistry } from './engine/registry.js';
import { createRemoteEngine, type EngineChannel } from './engine/remote-engine.js';
import { detectScriptRequirement } from './engine/selection.js';
import { createLogger, type Logger } from './logger.js';
import { BACKGROUND_LANE, type ModuleJob, type ModuleLane } from './module/app-module.js';
import { buildModules, type BuiltModules } from './module/build-modules.js';
import type { PublicUrls } from './module/module-context.js';
import { APP_MODULES, type ModuleServices } from './modules.js';
import { createModelRegistry } from './models/model-registry.js';
import { createSearchRegistry } from './search/search-registry.js';
import { createParserRegistry } from './parsers/parser.js';
import { createEngineSetup, createModelSetup, createSearchSetup, PARSERS } from './plugins.js';
import { createContentPipeline } from './pipeline/content-pipeline.js';
import { createConvertPool } from './pipeline/convert-pool.js';
import { defaultMarkdownConverter } from './pipeline/markdown/default-converter.js';
import { createMemoryPubSub } from './pubsub/memory-pubsub.js';
import { createPostgresPubSub } from './pubsub/postgres-pubsub.js';
import type { PubSub } from './pubsub/pubsub.js';
import type { BlobStore } from './storage/blob-store.js';
import { createBlobStore } from './storage/create-blob-store.js';
import { maintenanceJob } from './workers/maintenance.js';
import { JobQueue } from './workers/queue/job-queue.js';
import { LeaseConnection } from './workers/queue/lease-connection.js';
import { WorkSignal } from './workers/work-signal.js';

export type { Role } from './config.js';
export type { PublicUrls } from './module/module-context.js';

/** Every module's services, by name (`services.batches`, `services.crawls`...). */
export type Services = ModuleServices;

/** Everything a transport or job needs, wired once. The only place that knows every part. */
export interface Container {
  config: AppConfig;
  role: Role;
  version: string;
  logger: Logger;
  db: Database;
  pubsub: PubSub;
  urls: PublicUrls;
  signingSecret: string;
  blobs: BlobStore;
  /** The outbound network policy every request the service makes goes through. */
  guard: OutboundGuard;
  engines: EngineRegistry;
  /** The one job queue of all background work. */
  queue: JobQueue;
  services: Services;
  /** What the modules bring: routes, job kinds and lanes, maintenance. */
  modules: BuiltModules;
  /** Every job kind with its handler and lane: the modules' and the core's (maintenance). */
  jobs: ModuleJob[];
  /** The job threads of a worker process. */
  lanes: ModuleLane[];
  /** Notified when this process queues background work (see startWorkers). */
  work: WorkSignal;
  /** WebSockets and streams of this process by credential: they close when it is revoked or expires. */
  live: LiveConnections;
  close(): Promise<void>;
}

export interface ContainerOptions {
  role?: Role;
  logger?: Logger;
  /** Embedded database in memory instead of DATA_DIR (tests). */
  inMemoryDatabase?: boolean;
  /** DNS for the outbound guard (default: the system resolver); tests map `*.localhost` names to 127.0.0.1. */
  resolve?: Resolver;
  /** Connect here instead of opening the configured database (worker threads reuse their process's). */
  connection?: string | PgTarget;
  /** Apply migrations (default true; worker threads leave it to their process). */
  migrate?: boolean;
  /** Use this pubsub (worker threads relay events through their process). */
  pubsub?: PubSub;
  /**
   * Render pages with the browser engine of the process's main thread, reached over this
   * channel, instead of starting a Chromium in this thread (job threads: one browser per process).
   */
  browserChannel?: EngineChannel;
}

export const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export async function createContainer(config: AppConfig, options: ContainerOptions = {}): Promise<Container> {
  const role = options.role ?? 'all';
  const logger = options.logger ?? createLogger(config, { role });
  const db = await openDatabase(config, {
    applicationName: `gleaner-${role}`,
    inMemory: options.inMemoryDatabase,
    connection: options.connection,
    migrate: options.migrate,
  });
  const closers: (() => Promise<void>)[] = [() => db.close()];
  try {
    if (db.migrated.length > 0) logger.info({ migrations: db.migrated }, 'database migrated');
    const pubsub = options.pubsub ?? (await createPubSub(config, db, logger, role));
    if (!options.pubsub) closers.unshift(() => pubsub.close()); // an injected pubsub belongs to the caller
    const urls = createPublicUrls(config);
    const secret = await signingSecret(db.orm, config.signingSecret);
    const blobs = await createBlobStore(config, {
      dataDir: config.dataDir,
      secret,
      baseUrl: () => urls.base(),
      databaseFlushes: db.flushesCommits,
    });
    await blobs.init();
    closers.unshift(async () => blobs.close?.());
    const guard = createOutboundGuard(config.outbound, { resolve: options.resolve });
    // Engines that cannot run here (no Chromium, no remote browser configured) are named in the
    // 400 a request needing them gets (and once in the start log, by main.ts); pages the http
    // engine fetched that need JavaScript are re-rendered by a browser engine.
    const setup = createEngineSetup(config, { guard });
    const channel = options.browserChannel;
    const local = channel
      ? setup.engines.map((e) => (e.capabilities.javascript ? createRemoteEngine(e, channel) : e))
      : setup.engines;
    const engines = createEngineRegistry(local, {
      unavailable: setup.unavailable,
      escalate: detectScriptRequirement,
      crawl: setup.crawl,
      catalog: setup.catalog,
    });
    await engines.start();
    closers.unshift(() => engines.stop());
    // Worker threads are already off the API's event loop: they convert inline.
    const threads = role === 'worker' ? 0 : config.scrape.convertThreads;
    // Parsers are pipeline steps: they run where pages are converted (the conversion threads).
    const parsers = createParserRegistry(PARSERS);
    const pipeline = createContentPipeline({ transformers: builtinTransformers, parsers });
    if (isMainThread) logMarkdownConverter(logger);
    const convertPool =
      threads > 0
        ? createConvertPool({ size: threads, logger, helper: config.scrape.convertSharing ? pipeline : undefined })
        : null;
    if (convertPool) closers.unshift(() => convertPool.close());
    const work = new WorkSignal();
    // Lease renewals on a connection of their own, never queued behind the jobs they keep alive.
    const leases = new LeaseConnection(db.connection);
    closers.unshift(() => leases.close());
    const queue = new JobQueue(db.orm, [], { leases });
    const modelSetup = createModelSetup(config, { guard, resolve: options.resolve });
    const models = createModelRegistry(modelSetup.plugins, modelSetup.unavailable);
    const searchSetup = createSearchSetup(config, { guard, resolve: options.resolve });
    const search = createSearchRegistry(searchSetup.plugins, searchSetup.unavailable);
    closers.unshift(async () => {
      await models.close();
      await search.close();
    });
    let live: LiveConnections | null = null;
    let modules: BuiltModules | null = null;
    modules = buildModules(
      APP_MODULES,
      {
        config,
        role,
        logger,
        orm: db.orm,
        pubsub,
        blobs,
        guard,
        engines,
        proxies: createProxyPool(config.proxies),
        pipeline,
        convertPool,
        parsers,
        queue,
        work,
        secret,
        urls,
        crawlEngine: () => engines.crawlEngine(),
        models,
        search,
        liveConnections: () => live!,
        routes: () => modules!.routes(),
      },
      (module) => (module.configKey ? (config as unknown as Record<string, unknown>)[module.configKey] : undefined),
    );
    const built = modules;
    closers.unshift(() => built.stop());
    const maintenance = maintenanceJob(modules, queue, config, logger);
    queue.define(maintenance.spec);
    const services = modules.services as Services;
    live = createLiveConnections({
      pubsub,
      revokedAmong: (keyIds) => services.auth.revokedAmong(keyIds),
      onRevoked: (keyId) => services.auth.forgetKey(keyId),
      recheckMs: services.auth.keyCacheMs,
      logger,
    });
    closers.unshift(async () => live?.close());
    return {
      config,
      role,
      version: VERSION,
      logger,
      db,
      pubsub,
      urls,
      signingSecret: secret,
      blobs,
      guard,
      engines,
      queue,
      services,
      modules,
      jobs: [...modules.jobs(), maintenance],
      lanes: [...modules.lanes(), { name: BACKGROUND_LANE, threads: 1, single: true }],
      work,
      live,
      async close() {
        for (const close of closers) await close().catch((err: Error) => logger.error({ err }, 'close failed'));
      },
    };
  } catch (err) {
    for (const close of closers) await close().catch(() => undefined);
    throw err;
  }
}

async function createPubSub(config: AppConfig, db: Database, logger: Logger, role: Role): Promise<PubSub> {
  const wanted = config.pubsub === 'auto' ? (db.kind === 'server' ? 'postgres' : 'memory') : config.pubsub;
  if (wanted === 'memory') return createMemoryPubSub();
  if (typeof db.connection !== 'string') {
    // PGlite is one session behind a socket: NOTIFY does not cross its connections.
    throw new Error('PUBSUB=postgres needs DATABASE_URL (the embedded database cannot carry LISTEN/NOTIFY)');
  }
  // A worker process serves no subscribers: it publishes, and listens only if something subscribes.
  return createPostgresPubSub(db.connection, logger, { listen: role === 'worker' ? 'on-subscribe' : 'now' });
}

function createPublicUrls(config: AppConfig): PublicUrls {
  let boundPort: number | undefined;
  return {
    base: () => publicBaseUrl(config, boundPort),
    docs: () => (config.docsUrl ?? `${publicBaseUrl(config, boundPort)}/docs`).replace(/\/+$/, ''),
    setBoundPort(port) {
      boundPort = port;
    },
  };
}

/**
 * Which markdown converter this process runs and why, in one line at start (its threads load the
 * same one): mdream's native addon; its WebAssembly build where npm skipped the addon (Node 20) or
 * it failed; turndown when mdream did not load at all.
 */
function logMarkdownConverter(logger: Logger): void {
  const { converter, problems } = defaultMarkdownConverter();
  const reason = problems.join('; ');
  if (converter.id === 'turndown')
    logger.warn(
      { converter: converter.id, reason },
      `markdown converter: turndown, as mdream did not load (${reason})`,
    );
  else if (converter.id === 'mdream-wasm')
    logger.info(
      { converter: converter.id, reason },
      `markdown converter: mdream's WebAssembly build (the same markdown for a little more CPU), as ${reason}`,
    );
  else logger.info({ converter: converter.id }, "markdown converter: mdream's native addon");
}
