import { z } from 'zod';
import { defineEngine } from '../../src/engine/engine-definition.js';
import type { ParsedOf, SettingsTable } from '../../src/settings.js';
import { createHttpEngine } from './http.engine.js';

export const HTTP_ENGINE_SETTINGS = {
  SCRAPE_USER_AGENT: {
    schema: z.string().min(1),
    doc: 'User-Agent of plain HTTP fetches. Unset: a realistic browser header set (got-scraping).',
  },
} satisfies SettingsTable;

/** `config.httpEngine`. */
export interface HttpEngineSettings {
  /** A fixed User-Agent; null: realistic browser header sets. */
  userAgent: string | null;
}

export function httpEngineSettings(v: ParsedOf<typeof HTTP_ENGINE_SETTINGS>): HttpEngineSettings {
  return { userAgent: v.SCRAPE_USER_AGENT ?? null };
}

/** `http`: plain HTTP with browser-like headers, no scripts; the cheapest engine, tried first. */
export const httpEngine = defineEngine({
  id: 'http',
  kind: 'scrape',
  description: 'Plain HTTP (got-scraping) with browser-like headers; no scripts',
  capabilities: ['proxy'],
  priority: 100,
  settings: HTTP_ENGINE_SETTINGS,
  configKey: 'httpEngine',
  config: httpEngineSettings,
  create: ({ config, settings, guard, priority }) =>
    createHttpEngine({
      guard,
      connectTimeoutMs: config.scrape.connectTimeoutMs,
      maxResponseBytes: config.scrape.maxResponseBytes,
      userAgent: settings.userAgent,
      priority,
    }),
});
