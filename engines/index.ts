import type { AppConfig } from '../src/config.js';
import type { OutboundGuard } from '../src/engine/outbound-guard.js';
import type { UnavailableEngine } from '../src/engine/registry.js';
import type { ScrapeEngine } from '../src/engine/types.js';
import { createHttpEngine } from './http/http.engine.js';
import { locateChromium } from './playwright/chromium-path.js';
import { createPlaywrightEngine } from './playwright/playwright.engine.js';

export interface EngineDeps {
  /** The one outbound guard of the process (`createOutboundGuard(config.outbound)`). */
  guard: OutboundGuard;
  /** Where to look for Chromium when CHROMIUM_PATH is unset (default `CHROMIUM_CANDIDATES`). */
  chromiumCandidates?: readonly string[];
}

type EngineConfig = Pick<AppConfig, 'scrape'> & Partial<Pick<AppConfig, 'browser'>>;

export interface EngineSetup {
  engines: ScrapeEngine[];
  /** Engines of this build that cannot run here, with why and how to enable them (for the registry's 400s). */
  unavailable: UnavailableEngine[];
}

const BROWSER_CAPABILITIES: UnavailableEngine['capabilities'] = [
  'javascript',
  'actions',
  'screenshot',
  'pdf',
  'screen',
  'proxy',
];

/**
 * Every engine this build ships that can run here, and the ones that cannot. Adding an engine
 * = one folder under `engines/` and one line here (see docs/engines.md). The browser engine
 * needs Chromium: when it is not installed (or BROWSER_ENABLED=false) the service still runs
 * and requests that need a browser get a 400 saying how to enable it.
 *
 * @example
 * const { engines, unavailable } = createEngineSetup(config, { guard });
 * const registry = createEngineRegistry(engines, { unavailable, escalate: detectScriptRequirement });
 */
export function createEngineSetup(config: EngineConfig, deps: EngineDeps): EngineSetup {
  const { scrape } = config;
  const engines: ScrapeEngine[] = [
    createHttpEngine({
      guard: deps.guard,
      connectTimeoutMs: scrape.connectTimeoutMs,
      maxResponseBytes: scrape.maxResponseBytes,
      userAgent: scrape.userAgent,
    }),
  ];
  const unavailable: UnavailableEngine[] = [];
  const browser = config.browser;
  if (!browser || !browser.enabled) {
    const reason = browser
      ? 'the browser engine is disabled (BROWSER_ENABLED=false); set BROWSER_ENABLED=true with Chromium installed'
      : 'the browser engine is not configured';
    unavailable.push({ id: 'playwright', capabilities: BROWSER_CAPABILITIES, reason });
    return { engines, unavailable };
  }
  const chromium = locateChromium(browser.chromiumPath, deps.chromiumCandidates);
  if (chromium.path === null) {
    unavailable.push({ id: 'playwright', capabilities: BROWSER_CAPABILITIES, reason: chromium.reason });
    return { engines, unavailable };
  }
  engines.push(
    createPlaywrightEngine({
      guard: deps.guard,
      executablePath: chromium.path,
      connectTimeoutMs: scrape.connectTimeoutMs,
      maxResponseBytes: scrape.maxResponseBytes,
      poolSize: browser.poolSize,
      restartAfterPages: browser.restartAfterPages,
      pageHeapMb: browser.pageHeapMb,
    }),
  );
  return { engines, unavailable };
}

/**
 * The engines that can run here, for the registry (see `createEngineSetup` for the ones that cannot).
 *
 * @example
 * const registry = createEngineRegistry(createEngines(config, { guard }));
 */
export function createEngines(config: EngineConfig, deps: EngineDeps): ScrapeEngine[] {
  return createEngineSetup(config, deps).engines;
}
