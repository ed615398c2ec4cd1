import type { OutboundGuard, Resolver } from '../engine/outbound-guard.js';
import { listDefinitions, type PluginDefinition } from '../plugin-definition.js';
import type { SearchProvider } from './search-provider.js';

/** What the composition root hands every search provider's `create` (with the provider's own `settings`). */
export interface SearchProviderDeps {
  /** The one outbound guard of the process: calls go through it (the configured host is trusted). */
  guard: OutboundGuard;
  /** DNS for the configured host (default: the system resolver), as the guard's. */
  resolve?: Resolver;
}

export type SearchProviderDefinition<K extends string = string, C = unknown> = PluginDefinition<
  SearchProvider,
  SearchProviderDeps,
  K,
  C
>;

/**
 * Declares an external search provider: one folder under `plugins/search/` and one line in its
 * `index.ts`. (Providers over this deployment's own data need the database: their module
 * registers them, as searches does with `stored`.)
 *
 * @example
 * export const searxngProvider = defineSearchProvider({
 *   id: 'searxng',
 *   description: 'Web search through SearXNG',
 *   priority: 10,
 *   settings: SEARXNG_SETTINGS,
 *   configKey: 'searxng',
 *   config: searxngSettings,
 *   create: ({ settings, guard }) => (settings ? createSearxng(settings, guard) : unavailable('SEARXNG_URL is not set')),
 * });
 */
export function defineSearchProvider<const K extends string = never, C = never>(
  definition: Omit<SearchProviderDefinition<K, C>, 'kind'>,
): SearchProviderDefinition<K, C> {
  return { ...definition, kind: 'search-provider' };
}

/** The definitions of `plugins/search/index.ts`, checked and by priority. */
export function listSearchProviders<T extends SearchProviderDefinition>(list: Record<string, T>): T[] {
  return listDefinitions(list, 'search provider', (v) => (v as { kind?: unknown } | null)?.kind === 'search-provider');
}
