import * as engineList from '../engines/index.js';
import * as modelList from '../plugins/models/index.js';
import * as parserList from '../plugins/parsers/index.js';
import * as searchList from '../plugins/search/index.js';
import type { ConfigsOf } from './configurable.js';
import type { CoreConfig } from './core-config.js';
import { listEngines } from './engine/engine-definition.js';
import { createEngineSetup as setupEngines, type EngineSetup } from './engine/engine-setup.js';
import type { OutboundGuard } from './engine/outbound-guard.js';
import type { ModelProvider } from './models/model-provider.js';
import { listModelProviders, type ModelProviderDeps } from './models/model-provider-definition.js';
import { listParsers } from './parsers/parser.js';
import { createPluginSetup } from './plugin-definition.js';
import type { UnavailablePlugin } from './plugin-registry.js';
import type { SearchProvider } from './search/search-provider.js';
import { listSearchProviders, type SearchProviderDeps } from './search/search-provider-definition.js';

type EngineDefinitions = (typeof engineList)[keyof typeof engineList];
type ModelProviderDefinitions = (typeof modelList)[keyof typeof modelList];
type SearchProviderDefinitions = (typeof searchList)[keyof typeof searchList];

/**
 * THE LISTS OF ENGINES AND PLUGINS, as the configuration (their settings), the composition root,
 * `GET /v1/status` and `npm run config:docs` read them: each from its one file of one line per
 * engine or plugin (`engines/index.ts`, `plugins/<kind>/index.ts`), highest priority first.
 */
export const ENGINES = listEngines<EngineDefinitions>(engineList);
export const MODEL_PROVIDERS = listModelProviders<ModelProviderDefinitions>(modelList);
export const SEARCH_PROVIDERS = listSearchProviders<SearchProviderDefinitions>(searchList);
export const PARSERS = listParsers(parserList);

/** Every engine's and provider's configuration slice, by its `configKey` (`config.browser`, `config.model`...). */
export type PluginConfigs = ConfigsOf<EngineDefinitions | ModelProviderDefinitions | SearchProviderDefinitions>;

type EngineConfigs = ConfigsOf<EngineDefinitions>;

/**
 * The engines of this build made from `config`: those that can run here, and those that cannot
 * with why (named in the 400 a request needing them gets, and in `GET /v1/status`).
 *
 * @example
 * const setup = createEngineSetup(config, { guard });
 * const registry = createEngineRegistry(setup.engines, { unavailable: setup.unavailable, crawl: setup.crawl, catalog: setup.catalog });
 */
export function createEngineSetup(config: CoreConfig & EngineConfigs, deps: { guard: OutboundGuard }): EngineSetup {
  return setupEngines(ENGINES, config, deps);
}

/** The service's backoff between model retries: 1 s doubling, at most 30 s (what MODEL_MAX_RETRIES documents). */
const RETRY_DELAYS: ModelProviderDeps['retryDelays'] = { baseDelayMs: 1000, maxDelayMs: 30_000 };

/**
 * The model providers configured here, by priority (the first is the default), and those that
 * are not. Calls go through the outbound guard.
 *
 * @example
 * const { plugins, unavailable } = createModelSetup(config, { guard });
 * const models = createModelRegistry(plugins, unavailable); // on shutdown: await models.close();
 */
export function createModelSetup(
  config: ConfigsOf<ModelProviderDefinitions>,
  deps: Omit<ModelProviderDeps, 'retryDelays'> & Partial<Pick<ModelProviderDeps, 'retryDelays'>>,
): { plugins: ModelProvider[]; unavailable: UnavailablePlugin[] } {
  return createPluginSetup<ModelProvider, ModelProviderDeps>(MODEL_PROVIDERS, config, {
    retryDelays: RETRY_DELAYS,
    ...deps,
  });
}

/**
 * The external search providers configured here, by priority, and those that are not (the
 * provider over stored pages needs the database: the searches module registers it).
 *
 * @example
 * const { plugins, unavailable } = createSearchSetup(config, { guard });
 * const search = createSearchRegistry(plugins, unavailable);
 */
export function createSearchSetup(
  config: ConfigsOf<SearchProviderDefinitions>,
  deps: SearchProviderDeps,
): { plugins: SearchProvider[]; unavailable: UnavailablePlugin[] } {
  return createPluginSetup<SearchProvider, SearchProviderDeps>(SEARCH_PROVIDERS, config, deps);
}
