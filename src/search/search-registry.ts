import { createPluginRegistry, type PluginRegistry, type UnavailablePlugin } from '../plugin-registry.js';
import type { SearchProvider } from './search-provider.js';

/**
 * Search providers by id; the first is the default.
 *
 * @example
 * const { plugins, unavailable } = createSearchSetup(config, { guard });
 * const search = createSearchRegistry([...plugins, storedPagesSearch], unavailable);
 * const provider = search.require(body.search?.provider); // 400 for an unknown id, or when none is configured
 * const results = await provider.search(task, { teamId: actor.teamId, limit: 5, signal });
 */
export type SearchRegistry = PluginRegistry<SearchProvider>;

export function createSearchRegistry(
  providers: readonly SearchProvider[] = [],
  unavailable: readonly UnavailablePlugin[] = [],
): SearchRegistry {
  return createPluginRegistry(
    {
      kind: 'search provider',
      unconfigured: 'no search provider is configured on this service (the operator sets SEARXNG_URL)',
    },
    providers,
    unavailable,
  );
}
