import type { AppConfig } from '../../src/config.js';
import { createGuardedFetch } from '../../src/engine/guarded-fetch.js';
import type { OutboundGuard, Resolver } from '../../src/engine/outbound-guard.js';
import type { SearchProvider } from '../../src/search/search-provider.js';
import { createSearxngProvider } from './searxng/searxng.provider.js';

export interface SearchDeps {
  /** The one outbound guard of the process (`createOutboundGuard(config.outbound)`). */
  guard: OutboundGuard;
  /** DNS for the configured SearXNG host (default: the system resolver), as the guard's. */
  resolve?: Resolver;
}

/**
 * The external search providers this deployment has: SearXNG when SEARXNG_URL is set (its
 * host reachable even on a private network, and only it). The provider over this deployment's
 * own stored pages needs the database and is registered by the composition root. Adding a
 * provider = one folder under `plugins/search/` and one line here.
 *
 * @example
 * const search = createSearchRegistry(createSearchSetup(config, { guard }));
 * // on shutdown: await search.close();
 */
export function createSearchSetup(config: Pick<AppConfig, 'search'>, deps: SearchDeps): SearchProvider[] {
  const providers: SearchProvider[] = [];
  const searxng = config.search.searxng;
  if (searxng) {
    const guarded = createGuardedFetch(deps.guard, { trustedOrigins: [searxng.url], resolve: deps.resolve });
    providers.push(
      createSearxngProvider({
        baseUrl: searxng.url,
        timeoutMs: searxng.timeoutMs,
        fetch: guarded.fetch,
        close: () => guarded.close(),
      }),
    );
  }
  return providers;
}
