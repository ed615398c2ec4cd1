import type { Configurable } from './configurable.js';
import type { UnavailablePlugin } from './plugin-registry.js';

/** A part this build ships that cannot run here, and what would enable it. */
export interface Unavailable {
  /** Operators read it in 400s, the start log and `GET /v1/status`: no secrets; say how to fix it. */
  readonly unavailable: string;
}

/** @example return unavailable('SEARXNG_URL is not set'); */
export const unavailable = (reason: string): Unavailable => ({ unavailable: reason });

export const isUnavailable = (value: object): value is Unavailable => 'unavailable' in value;

/**
 * A provider plugin (model or search provider) as its folder declares it: its identity, its
 * settings and how it is made from them. `X` is what the composition root hands every provider
 * of the kind (the guard, DNS…); `create` gets it with the provider's own `settings`.
 */
export interface PluginDefinition<T, X, K extends string = string, C = unknown> extends Configurable<K, C> {
  /** What it is (`model-provider`, `search-provider`): set by its `define…` function. */
  readonly kind: string;
  /** Unique within its kind: requests name it (`search: {provider: "searxng"}`). */
  readonly id: string;
  /** One line for operators (`GET /v1/status`), without secrets or addresses. */
  readonly description: string;
  /** The configured provider with the highest priority is the default. */
  readonly priority: number;
  create(ctx: X & { readonly settings: C }): T | Unavailable;
}

/**
 * The definitions of a list file (`import * as list from '../plugins/search/index.js'`: a file of
 * `export { x } from …` lines, one per plugin), checked (`isDefinition`, unique ids) and ordered
 * by priority, highest first, ids breaking ties.
 */
export function listDefinitions<T extends { id: string; priority: number }>(
  list: Record<string, T>,
  what: string,
  isDefinition: (value: unknown) => boolean,
): T[] {
  const seen = new Set<string>();
  for (const [name, definition] of Object.entries(list)) {
    if (!isDefinition(definition))
      throw new Error(`the list of ${what}s exports ${name}, which is not a declared ${what}`);
    if (seen.has(definition.id)) throw new Error(`${what} "${definition.id}" is declared twice`);
    seen.add(definition.id);
  }
  return Object.values(list).sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id));
}

/**
 * Makes every provider of `definitions` that is configured, in priority order, from its slice of
 * `config`; the others are returned with why, for the registry.
 *
 * @example
 * const { plugins, unavailable } = createPluginSetup(SEARCH_PROVIDERS, config, { guard });
 * const search = createSearchRegistry(plugins, unavailable);
 */
export function createPluginSetup<T, X>(
  definitions: readonly PluginDefinition<T, X, string, unknown>[],
  config: object,
  ctx: X,
): { plugins: T[]; unavailable: UnavailablePlugin[] } {
  const plugins: T[] = [];
  const off: UnavailablePlugin[] = [];
  for (const definition of definitions) {
    const settings = definition.configKey ? (config as Record<string, unknown>)[definition.configKey] : undefined;
    const made = definition.create({ ...ctx, settings });
    if (isUnavailable(made as object)) {
      off.push({ id: definition.id, description: definition.description, reason: (made as Unavailable).unavailable });
    } else plugins.push(made as T);
  }
  return { plugins, unavailable: off };
}
