import type { CoreConfig } from '../core-config.js';
import type { CrawlEngine } from './crawl-engine.js';
import type { EngineDefinition } from './engine-definition.js';
import { isUnavailable, type Unavailable } from '../plugin-definition.js';
import type { OutboundGuard } from './outbound-guard.js';
import type { EngineRegistry, UnavailableEngine } from './registry.js';
import type { Capability, ScrapeEngine } from './types.js';

/** What `GET /v1/status` says about an engine whatever its state: its definition's identity. */
export interface EngineInfo {
  id: string;
  kind: 'scrape' | 'crawl';
  description: string;
  capabilities: Capability[];
  priority: number;
}

/** A crawl engine of the build, made on first use from the process's scrape engines. */
export interface CrawlEngineEntry {
  id: string;
  create(engines: EngineRegistry): CrawlEngine | Unavailable;
}

export interface EngineSetup {
  /** The scrape engines that can run here. */
  engines: ScrapeEngine[];
  /** Engines of this build that cannot run here, with why and how to enable them (for the registry's 400s). */
  unavailable: UnavailableEngine[];
  /** The crawl engines, by priority: the registry makes the first that can run (`crawlEngine()`). */
  crawl: CrawlEngineEntry[];
  /** Every engine of the build, both kinds, by priority. */
  catalog: EngineInfo[];
}

/** The configuration an engine setup reads: the core's and each engine's slice by its `configKey`. */
export type EngineSetupConfig = CoreConfig & object;

/**
 * Makes every engine of `definitions` that can run here, from its slice of `config`: what the
 * composition root registers. An engine whose `create` reports something other than its
 * definition declares (id, capabilities, priority) is a bug, refused at boot.
 *
 * @example
 * const setup = createEngineSetup(ENGINES, config, { guard });
 * const registry = createEngineRegistry(setup.engines, { unavailable: setup.unavailable, crawl: setup.crawl, catalog: setup.catalog });
 */
export function createEngineSetup(
  definitions: readonly EngineDefinition[],
  config: EngineSetupConfig,
  deps: { guard: OutboundGuard },
): EngineSetup {
  const setup: EngineSetup = { engines: [], unavailable: [], crawl: [], catalog: [] };
  for (const definition of definitions) {
    const capabilities = definition.kind === 'scrape' ? [...definition.capabilities] : [];
    const { id, kind, description, priority } = definition;
    setup.catalog.push({ id, kind, description, capabilities, priority });
    const settings = definition.configKey ? (config as Record<string, unknown>)[definition.configKey] : undefined;
    const ctx = { config, settings, guard: deps.guard, priority };
    if (definition.kind === 'crawl') {
      setup.crawl.push({ id, create: (engines) => definition.create({ ...ctx, engines }) });
      continue;
    }
    const made = definition.create(ctx);
    if (isUnavailable(made)) {
      setup.unavailable.push({ id, kind, capabilities, reason: made.unavailable });
      continue;
    }
    checkDeclared(made, id, capabilities, priority);
    setup.engines.push(made);
  }
  return setup;
}

function checkDeclared(engine: ScrapeEngine, id: string, capabilities: Capability[], priority: number): void {
  const reported = (Object.keys(engine.capabilities) as Capability[]).filter((c) => engine.capabilities[c]);
  const same = reported.length === capabilities.length && reported.every((c) => capabilities.includes(c));
  if (engine.id !== id || engine.priority !== priority || !same) {
    throw new Error(
      `engine ${id} is declared with priority ${priority} and capabilities [${capabilities.join(', ')}], ` +
        `but its create() made ${engine.id} with priority ${engine.priority} and [${reported.join(', ')}]`,
    );
  }
}
