import type { CoreConfig, Role } from '../core-config.js';
import type { Orm } from '../db/orm.js';
import type { CrawlEngine } from '../engine/crawl-engine.js';
import type { OutboundGuard } from '../engine/outbound-guard.js';
import type { ProxyPool } from '../engine/proxy-pool.js';
import type { EngineRegistry } from '../engine/registry.js';
import type { Logger } from '../logger.js';
import type { ParserRegistry } from '../parsers/parser.js';
import type { ContentPipeline } from '../pipeline/content-pipeline.js';
import type { ConvertPool } from '../pipeline/convert-pool.js';
import type { PubSub } from '../pubsub/pubsub.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { JobQueue } from '../workers/queue/job-queue.js';
import type { WorkSignal } from '../workers/work-signal.js';
import type { LiveConnections } from '../domain/auth/live-connections.js';
import type { ModelRegistry } from '../models/model-registry.js';
import type { SearchRegistry } from '../search/search-registry.js';
import type { AppModule } from './app-module.js';
import type { AnyRoute } from './route.js';

/** Public addresses of this deployment; the bound port is known only after listen. */
export interface PublicUrls {
  base(): string;
  docs(): string;
  setBoundPort(port: number): void;
}

/**
 * What the composition root hands every module when it builds the module's services: the
 * shared infrastructure, the core configuration, the module's own settings, and the services
 * of the modules it uses. Modules see interfaces, never the plugins behind them.
 */
export interface ModuleContext<C = unknown> {
  /** The core configuration (the module's own settings are `settings`). */
  readonly config: CoreConfig;
  readonly settings: C;
  readonly role: Role;
  readonly logger: Logger;
  readonly orm: Orm;
  readonly pubsub: PubSub;
  readonly blobs: BlobStore;
  /** The outbound network policy every request the service makes goes through. */
  readonly guard: OutboundGuard;
  readonly engines: EngineRegistry;
  readonly proxies: ProxyPool;
  readonly pipeline: ContentPipeline;
  /** Conversion threads of the API process; null converts inline. */
  readonly convertPool: ConvertPool | null;
  readonly parsers: ParserRegistry;
  readonly queue: JobQueue;
  /** Wakes this process's job supervisor when a module queues work. */
  readonly work: WorkSignal;
  /** HMAC secret of the deployment (signed cursors, signed URLs). */
  readonly secret: string;
  readonly urls: PublicUrls;
  /** The crawl engine (made on first use: it loads Crawlee). */
  crawlEngine(): CrawlEngine;
  /** Model providers (MODEL_*); `default()` is null when none is configured. */
  readonly models: ModelRegistry;
  /** Search providers (SEARXNG_URL; modules register theirs, like the stored pages' full text). */
  readonly search: SearchRegistry;
  /**
   * Long-lived connections by credential (sockets, event streams): a stream a module opens
   * registers here and is ended when its key is revoked or its token expires.
   */
  liveConnections(): LiveConnections;
  /** Every module's REST operations (for calling one in-process, as schedules do). */
  routes(): AnyRoute[];
  /** The services of another module (built first if need be; a cycle is an error). */
  use<S extends object>(module: AppModule<S, string, never> | AppModule<S, string, unknown>): S;
}
