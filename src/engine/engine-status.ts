import type { CrawlEngine } from './crawl-engine.js';
import type { Unavailable } from '../plugin-definition.js';
import type { EngineInfo } from './engine-setup.js';
import type { UnavailableEngine } from './registry.js';
import type { Capability, EngineState, ScrapeEngine } from './types.js';

/** One engine of the build as `GET /v1/status` shows it: what it is, whether it runs here, and how it is. */
export interface EngineStatus extends EngineInfo {
  /** It runs in this process (a request can use it). */
  available: boolean;
  /** Why it does not, and how to enable it; null when available. */
  reason: string | null;
  /** Its health as it knows it (null: not available). */
  state: EngineState | null;
}

/** A crawl engine's entry: made (an engine or why it cannot run) or not yet. */
export interface CrawlEngineSlot {
  id: string;
  made: CrawlEngine | Unavailable | null;
}

const READY: EngineState = Object.freeze({ status: 'ready', detail: null });

/**
 * Every engine of the build in catalog order (engines registered without a catalog entry, as
 * tests do, come last with what they report themselves).
 */
export function describeEngines(
  catalog: readonly EngineInfo[],
  running: readonly ScrapeEngine[],
  unavailable: readonly UnavailableEngine[],
  crawl: readonly CrawlEngineSlot[],
): EngineStatus[] {
  const byId = new Map(running.map((e) => [e.id, e]));
  const listed = new Set(catalog.map((c) => c.id));
  const extra: EngineInfo[] = running
    .filter((e) => !listed.has(e.id))
    .map((e) => ({ id: e.id, kind: 'scrape', description: '', capabilities: capabilitiesOf(e), priority: e.priority }));
  return [...catalog, ...extra].map((info) => {
    const off = unavailable.find((u) => u.id === info.id);
    if (off) return { ...info, available: false, reason: off.reason, state: null };
    const engine = byId.get(info.id);
    if (engine) return { ...info, available: true, reason: null, state: engine.state?.() ?? READY };
    const slot = crawl.find((c) => c.id === info.id);
    if (slot?.made && 'unavailable' in slot.made) {
      return { ...info, available: false, reason: slot.made.unavailable, state: null };
    }
    // A crawl engine not made yet is made on the first crawl; nothing about it can fail before.
    if (slot) return { ...info, available: true, reason: null, state: slot.made ? READY : IDLE };
    return { ...info, available: false, reason: 'not running in this process', state: null };
  });
}

const IDLE: EngineState = Object.freeze({ status: 'idle', detail: null });

function capabilitiesOf(engine: ScrapeEngine): Capability[] {
  return (Object.keys(engine.capabilities) as Capability[]).filter((c) => engine.capabilities[c]);
}
