import { defineSearchProvider } from '../../../src/search/search-provider-definition.js';
import { unavailable } from '../../../src/plugin-definition.js';
import { createGuardedFetch } from '../../../src/engine/guarded-fetch.js';
import { httpUrl, int, type ParsedOf, type SettingsTable } from '../../../src/settings.js';
import { createSearxngProvider } from './searxng.provider.js';

/** SearXNG's settings. */
export const SEARXNG_SETTINGS = {
  SEARXNG_URL: {
    schema: httpUrl,
    doc: 'Base URL of a SearXNG instance used as search provider `searxng` (its JSON API must be enabled: `search.formats` includes `json`). Reachable even on a private network.',
  },
  SEARXNG_TIMEOUT_MS: {
    schema: int(500, 300_000),
    default: '10000',
    doc: 'Longest wait for SearXNG to answer one search (504 `request_timeout` after).',
  },
} satisfies SettingsTable;

/** `config.searxng`: the SearXNG instance; null when SEARXNG_URL is unset. */
export interface SearxngSettings {
  url: string;
  timeoutMs: number;
}

export function searxngSettings(v: ParsedOf<typeof SEARXNG_SETTINGS>): SearxngSettings | null {
  return v.SEARXNG_URL ? { url: v.SEARXNG_URL, timeoutMs: v.SEARXNG_TIMEOUT_MS } : null;
}

/** `searxng`: web search through a SearXNG instance (its host reachable even on a private network, and only it). */
export const searxngProvider = defineSearchProvider({
  id: 'searxng',
  description: 'Web search through SearXNG',
  priority: 10,
  settings: SEARXNG_SETTINGS,
  configKey: 'searxng',
  config: searxngSettings,
  create: ({ settings, guard, resolve }) => {
    if (!settings) return unavailable('SEARXNG_URL is not set');
    const guarded = createGuardedFetch(guard, { trustedOrigins: [settings.url], resolve });
    return createSearxngProvider({
      baseUrl: settings.url,
      timeoutMs: settings.timeoutMs,
      fetch: guarded.fetch,
      close: () => guarded.close(),
    });
  },
});
