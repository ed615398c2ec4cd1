import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import type { Configurable } from '../configurable.js';
import type { JobKindSpec } from '../workers/queue/job-kind.js';
import type { JobHandler } from '../workers/queue/job-worker.js';
import type { GraphQLKit } from './graphql.js';
import type { ModuleContext } from './module-context.js';
import type { AnyRoute } from './route.js';

/**
 * The core's lane: one thread per worker process for jobs that mostly wait (webhook deliveries,
 * maintenance, schedule firings). Modules put such jobs here instead of declaring a lane.
 */
export const BACKGROUND_LANE = 'background';

/** A kind of background job a module brings, and where it runs. */
export interface ModuleJob {
  /** Declared on the queue in every process (the API queues jobs too). */
  spec: JobKindSpec;
  /** The job threads that run it (`ModuleLane.name`). */
  lane: string;
  /** Jobs of this kind one thread of the lane runs at once (0: this process runs none). */
  concurrency: number;
  /** See `WorkerKind.gatherMs`: claims of this kind wait this long for more slots to free. */
  gatherMs?: number;
  /** Builds the handler; called only in the lane's threads. */
  handler(): JobHandler<never>;
}

/** A group of job threads: `threads` Bree worker threads per worker process, named `<name>-<n>`. */
export interface ModuleLane {
  name: string;
  threads: number;
  /** One thread named just `<name>` (the webhook deliverer, maintenance). */
  single?: boolean;
}

/** Work a module does in the hourly maintenance round (retention); returns what it removed, by name. */
export type MaintenanceTask = (now: Date) => Promise<Record<string, number>>;

/**
 * What a module brings to the service. `src/modules.ts` lists the modules; the composition root,
 * the router, the schema builder, the worker supervisor and the ORM read that list and nothing
 * else, so adding a module is its folder plus one line there (see docs/architecture.md).
 *
 * `S` is the module's services (an object of named use cases: `{ batches: BatchService }`);
 * every module's services are also reachable by name on `Container.services`. `K`/`C` are the
 * key and type of the module's slice of the configuration, parsed from its `settings`
 * (`Configurable`: README and .env.example list them with the core's).
 *
 * @example
 * export const notesModule = defineModule({
 *   name: 'notes',
 *   entities: [NoteSchema],
 *   migrations: [{ name: '0012-notes', class: Migration0012Notes }],
 *   services: (ctx) => ({ notes: new NoteService(ctx.orm) }),
 *   routes: ({ notes }) => noteRoutes(notes),
 * });
 */
export interface AppModule<S extends object = object, K extends string = string, C = unknown> extends Configurable<
  K,
  C
> {
  /** Unique, lowercase: `batches`. */
  readonly name: string;
  readonly entities?: readonly EntitySchema[];
  /** Named `NNNN-<what>`; every module's migrations run in name order. */
  readonly migrations?: readonly MigrationObject[];
  /** Builds the module's services, once per process or job thread. */
  services(ctx: ModuleContext<C>): S;
  /** REST operations (`/v1/...`). */
  routes?(services: S): AnyRoute[];
  /** The module's GraphQL types, queries, mutations and subscriptions (resolvers use `services`). */
  graphql?(kit: GraphQLKit, services: S): void;
  /** Background job kinds and their handlers. */
  jobs?(services: S, ctx: ModuleContext<C>): ModuleJob[];
  /** Job threads the module's jobs run in. */
  lanes?(ctx: ModuleContext<C>): ModuleLane[];
  /** Hourly maintenance (retention) of the module's data. */
  maintenance?(services: S, ctx: ModuleContext<C>): MaintenanceTask[];
  /**
   * The process is stopping (after the HTTP server drained, before connections close): hand back
   * work the module runs outside the job threads, so another process takes it up at once.
   */
  stop?(services: S): Promise<void>;
}

/** Declares a module, keeping its key and types for `AppConfig` and `Container.services`. */
export function defineModule<S extends object, const K extends string = never, C = never>(
  module: AppModule<S, K, C>,
): AppModule<S, K, C> {
  return module;
}

/** The services object of a module. */
export type ServicesOf<M> = M extends { services(ctx: never): infer S } ? S : never;
