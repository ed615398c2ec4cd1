import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The maps module's settings (src/config.ts reads them with the core's). */
export const MAP_SETTINGS = {
  MAP_TIME_BUDGET_MS: {
    schema: int(1000, 300_000),
    default: '15000',
    doc: 'Time a map spends discovering (sitemaps and link discovery side by side); it answers with what it found by then.',
  },
  MAP_MAX_PAGES: {
    schema: int(0, 10_000),
    default: '50',
    doc: 'Pages a map reads for links, from the start page outward (0: sitemaps only).',
  },
  MAP_MAX_URLS: { schema: int(1, 1_000_000), default: '100000', doc: 'URLs one map lists at most.' },
} satisfies SettingsTable;

export interface MapSettings {
  timeBudgetMs: number;
  maxPages: number;
  maxUrls: number;
}

export function mapSettings(v: ParsedOf<typeof MAP_SETTINGS>): MapSettings {
  return { timeBudgetMs: v.MAP_TIME_BUDGET_MS, maxPages: v.MAP_MAX_PAGES, maxUrls: v.MAP_MAX_URLS };
}
