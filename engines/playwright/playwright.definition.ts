import { z } from 'zod';
import { defineEngine, unavailable } from '../../src/engine/engine-definition.js';
import { bool, int, type ParsedOf, type SettingsTable } from '../../src/settings.js';
import { CHROMIUM_CANDIDATES, locateChromium } from './chromium-path.js';
import { createPlaywrightEngine } from './playwright.engine.js';

export const BROWSER_SETTINGS = {
  BROWSER_ENABLED: {
    schema: bool,
    default: 'true',
    doc: 'Use the Chromium browser engine (`playwright`) when Chromium is installed. `false`: never start a browser; browser-only requests (actions, screenshots, screen sizes, raw_pdf) answer 400.',
  },
  CHROMIUM_PATH: {
    schema: z.string().min(1),
    doc: 'Chromium executable. Unset: the first of /usr/bin/chromium, chromium-browser, google-chrome found; none found: the service runs without the browser engine (browser-only requests answer 400). Never downloaded.',
  },
  BROWSER_POOL_SIZE: {
    schema: int(1, 64),
    default: '4',
    doc: 'Pages rendered at once per process (one fresh browser context each); more wait their turn within their time budget.',
  },
  BROWSER_RESTART_AFTER_PAGES: {
    schema: int(1, 1_000_000),
    default: '500',
    doc: 'Chromium is restarted (gracefully, after in-flight pages) once it has rendered this many pages; also restarted whenever it crashes.',
  },
  BROWSER_PAGE_HEAP_MB: {
    schema: int(64, 16384),
    default: '512',
    doc: "JavaScript heap limit of a page's renderer process; a page that needs more crashes its renderer (502) instead of the machine.",
  },
} satisfies SettingsTable;

/** `config.browser`: the local Chromium. */
export interface BrowserSettings {
  enabled: boolean;
  /** Explicit CHROMIUM_PATH; null: detected at start. */
  chromiumPath: string | null;
  /** Where Chromium is looked for when CHROMIUM_PATH is unset (tests point it elsewhere). */
  candidates: readonly string[];
  poolSize: number;
  restartAfterPages: number;
  pageHeapMb: number;
}

export function browserSettings(v: ParsedOf<typeof BROWSER_SETTINGS>): BrowserSettings {
  return {
    enabled: v.BROWSER_ENABLED,
    chromiumPath: v.CHROMIUM_PATH ?? null,
    candidates: CHROMIUM_CANDIDATES,
    poolSize: v.BROWSER_POOL_SIZE,
    restartAfterPages: v.BROWSER_RESTART_AFTER_PAGES,
    pageHeapMb: v.BROWSER_PAGE_HEAP_MB,
  };
}

/**
 * `playwright`: this machine's Chromium, driven by playwright-core. Needs Chromium: when it is
 * not installed (or BROWSER_ENABLED=false) the service still runs and requests that need a
 * browser get a 400 saying how to enable it.
 */
export const playwrightEngine = defineEngine({
  id: 'playwright',
  kind: 'scrape',
  description: "This machine's Chromium (playwright-core): scripts, actions, screenshots, PDFs",
  capabilities: ['javascript', 'actions', 'screenshot', 'pdf', 'screen', 'proxy'],
  priority: 10,
  settings: BROWSER_SETTINGS,
  configKey: 'browser',
  config: browserSettings,
  create: ({ config, settings, guard, priority }) => {
    if (!settings.enabled) {
      return unavailable(
        'the browser engine is disabled (BROWSER_ENABLED=false); set BROWSER_ENABLED=true with Chromium installed',
      );
    }
    const chromium = locateChromium(settings.chromiumPath, settings.candidates);
    if (chromium.path === null) return unavailable(chromium.reason);
    return createPlaywrightEngine({
      guard,
      executablePath: chromium.path,
      connectTimeoutMs: config.scrape.connectTimeoutMs,
      maxResponseBytes: config.scrape.maxResponseBytes,
      poolSize: settings.poolSize,
      restartAfterPages: settings.restartAfterPages,
      pageHeapMb: settings.pageHeapMb,
      priority,
    });
  },
});
