import type { Configurable } from '../configurable.js';
import { listDefinitions, type Unavailable } from '../plugin-definition.js';
import type { CoreConfig } from '../core-config.js';
import type { CrawlEngine } from './crawl-engine.js';
import type { OutboundGuard } from './outbound-guard.js';
import type { EngineRegistry } from './registry.js';
import type { Capability, ScrapeEngine } from './types.js';

/** What an engine's `create` gets: the core configuration, its own settings and the process's guard. */
export interface EngineContext<C = unknown> {
  /** The core configuration: scrape limits (`SCRAPE_*`), proxies, `DATA_DIR`. */
  readonly config: CoreConfig;
  /** The engine's own settings, as its `config` made them from its `settings`. */
  readonly settings: C;
  /** The one outbound guard of the process: every request the engine makes goes through it. */
  readonly guard: OutboundGuard;
  /** The definition's priority, for the engine to report (`ScrapeEngine.priority`). */
  readonly priority: number;
}

/** A crawl engine's context: it fetches pages with the process's scrape engines. */
export interface CrawlEngineContext<C = unknown> extends EngineContext<C> {
  readonly engines: EngineRegistry;
}

export { isUnavailable, unavailable, type Unavailable } from '../plugin-definition.js';

interface EngineDefinitionBase<K extends string, C> extends Configurable<K, C> {
  /** Unique: requests name it (`engine: "cdp"`) and `page_metadata.engine` records it. */
  readonly id: string;
  /** One line for operators (`GET /v1/status`), without secrets or addresses. */
  readonly description: string;
  /** Higher is tried first among engines of its kind that can do the request. */
  readonly priority: number;
}

/** An engine that fetches one page (`ScrapeEngine`). */
export interface ScrapeEngineDefinition<K extends string = string, C = unknown> extends EngineDefinitionBase<K, C> {
  readonly kind: 'scrape';
  /** What the engine can do; the engine `create` returns must report exactly these. */
  readonly capabilities: readonly Capability[];
  create(ctx: EngineContext<C>): ScrapeEngine | Unavailable;
}

/** An engine that runs a crawl over the scrape engines (`CrawlEngine`); the first available by priority is used. */
export interface CrawlEngineDefinition<K extends string = string, C = unknown> extends EngineDefinitionBase<K, C> {
  readonly kind: 'crawl';
  create(ctx: CrawlEngineContext<C>): CrawlEngine | Unavailable;
}

export type EngineDefinition<K extends string = string, C = unknown> =
  ScrapeEngineDefinition<K, C> | CrawlEngineDefinition<K, C>;

/**
 * Declares an engine: its identity, what it can do, its settings and how it is made. The list in
 * `engines/index.ts` (one line per engine) is read by the configuration (its settings), the
 * composition root (the registry), `GET /v1/status` and `npm run config:docs`.
 *
 * @example
 * export const echoEngine = defineEngine({
 *   id: 'echo',
 *   kind: 'scrape',
 *   description: 'Answers every URL with a page naming it',
 *   capabilities: ['screenshot'],
 *   priority: 5,
 *   settings: { ECHO_ENABLED: { schema: bool, default: 'false', doc: 'Enable the echo engine.' } },
 *   configKey: 'echo',
 *   config: (v) => ({ enabled: v.ECHO_ENABLED as boolean }),
 *   create: ({ settings, guard, priority }) =>
 *     settings.enabled ? createEchoEngine({ guard, priority }) : unavailable('set ECHO_ENABLED=true'),
 * });
 */
export function defineEngine<const K extends string = never, C = never>(
  definition: ScrapeEngineDefinition<K, C>,
): ScrapeEngineDefinition<K, C>;
export function defineEngine<const K extends string = never, C = never>(
  definition: CrawlEngineDefinition<K, C>,
): CrawlEngineDefinition<K, C>;
export function defineEngine(definition: EngineDefinition): EngineDefinition {
  return definition;
}

/**
 * The definitions of a list file (`import * as list from '../engines/index.js'`: a file of
 * `export { xEngine } from …` lines), checked (engine definitions, unique ids) and ordered by
 * priority, highest first, ids breaking ties (the file's order never matters).
 */
export function listEngines<T extends EngineDefinition>(list: Record<string, T>): T[] {
  const isEngine = (value: unknown) => {
    const kind = (value as { kind?: unknown } | null)?.kind;
    return kind === 'scrape' || kind === 'crawl';
  };
  return listDefinitions(list, 'engine', isEngine);
}
