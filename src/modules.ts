import { answersModule } from './domain/answers/answers.module.js';
import { authModule } from './domain/auth/auth.module.js';
import { batchesModule } from './domain/batches/batches.module.js';
import { crawlsModule } from './domain/crawls/crawls.module.js';
import { filesModule } from './domain/files/files.module.js';
import { idempotencyModule } from './domain/idempotency/idempotency.module.js';
import { mapsModule } from './domain/maps/maps.module.js';
import { monitorsModule } from './domain/monitors/monitors.module.js';
import { pagesModule } from './domain/pages/pages.module.js';
import { schedulesModule } from './domain/schedules/schedules.module.js';
import { scrapesModule } from './domain/scrapes/scrapes.module.js';
import { searchesModule } from './domain/searches/searches.module.js';
import { settingsModule } from './domain/settings/settings.module.js';
import { statusModule } from './domain/status/status.module.js';
import { webhooksModule } from './domain/webhooks/webhooks.module.js';
import type { ConfigsOf, UnionToIntersection } from './configurable.js';
import type { AppModule, ServicesOf } from './module/app-module.js';

/**
 * Every module of the service. The composition root, the router, the GraphQL schema, the worker
 * supervisor, the ORM and the configuration read this list and nothing else: a new module is
 * its folder under src/domain plus one line here (docs/architecture.md, "Adding a module").
 */
export const MODULES = [
  settingsModule,
  authModule,
  idempotencyModule,
  pagesModule,
  scrapesModule,
  webhooksModule,
  batchesModule,
  mapsModule,
  crawlsModule,
  filesModule,
  schedulesModule,
  searchesModule,
  answersModule,
  monitorsModule,
  statusModule,
] as const;

type AnyModule = (typeof MODULES)[number];

/** Every module's configuration slice, by its `configKey` (`config.crawls`, `config.webhooks`...). */
export type ModuleConfigs = ConfigsOf<AnyModule>;

/** Every module's services, by name (`services.batches`, `services.crawls`...). */
export type ModuleServices = UnionToIntersection<ServicesOf<AnyModule>>;

/** The modules as the composition root walks them. */
export const APP_MODULES: readonly AppModule<object, string, unknown>[] = MODULES as unknown as AppModule<
  object,
  string,
  unknown
>[];
