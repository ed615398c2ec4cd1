import { AppError, errors } from '../errors.js';
import type { CrawlEngine } from './crawl-engine.js';
import { isUnavailable } from '../plugin-definition.js';
import type { CrawlEngineEntry, EngineInfo } from './engine-setup.js';
import { describeEngines, type CrawlEngineSlot, type EngineStatus } from './engine-status.js';
import { EngineFallbackError, type EngineAttempt } from './errors.js';
import type { Capability, PageRequest, PageSnapshot, ScrapeEngine } from './types.js';

export interface FetchOptions {
  /** Capabilities the request needs; only engines having all of them are tried. */
  needs?: Capability[];
  /** Force one engine by id (the request's `engine` field). */
  engine?: string | null;
  /** Let a page that needs JavaScript be re-rendered by a browser engine (default true; see RegistryOptions.escalate). */
  escalate?: boolean;
  signal: AbortSignal;
}

export interface FetchResult {
  snapshot: PageSnapshot;
  /** Engines that fell back before `snapshot.engine` succeeded, in order. */
  attempts: EngineAttempt[];
  /** Set when a page fetched without scripts was handed to a browser engine, which produced `snapshot`. */
  escalation?: { from: string; reason: string };
}

/** An engine this build has that cannot run here (Chromium missing, disabled): named in "no capable engine" 400s. */
export interface UnavailableEngine {
  id: string;
  /** Default `scrape`. */
  kind?: 'scrape' | 'crawl';
  capabilities: Capability[];
  /** What is wrong and how to fix it: `Chromium was not found …; install it or set CHROMIUM_PATH`. */
  reason: string;
}

export interface RegistryOptions {
  /**
   * Says why a snapshot from an engine without `javascript` probably needs one (null: it does not),
   * usually `detectScriptRequirement` from selection.ts. The registry then hands the page (as
   * `req.prefetched`) to the next capable engine that runs scripts, within the remaining budget.
   * If that engine fails, the first snapshot is returned with a warning. Off when unset.
   */
  escalate?: (snapshot: PageSnapshot) => string | null;
  unavailable?: UnavailableEngine[];
  /** Escalation is skipped (with a warning) when less of the time budget than this remains. Default 2000 ms. */
  minEscalationBudgetMs?: number;
  /** The crawl engines of the build by priority (`EngineSetup.crawl`); `crawlEngine()` makes the first that can run. */
  crawl?: CrawlEngineEntry[];
  /** Every engine of the build (`EngineSetup.catalog`), for `describe()`. */
  catalog?: EngineInfo[];
}

/**
 * Engines by id. Fetches try capable engines by priority (highest first); an
 * `EngineFallbackError` moves on to the next one, any other error stops.
 *
 * @example
 * const setup = createEngineSetup(ENGINES, config, { guard });
 * const engines = createEngineRegistry(setup.engines, { unavailable: setup.unavailable, crawl: setup.crawl });
 * const { snapshot } = await engines.fetch(req, { needs: ['screenshot'], signal });
 */
export interface EngineRegistry {
  /** Adds an engine; throws when its id is taken. */
  register(engine: ScrapeEngine): void;
  get(id: string): ScrapeEngine | undefined;
  /** Every engine, by priority (highest first). */
  list(): ScrapeEngine[];
  /** Engines of this build that cannot run here, with why. */
  unavailable(): readonly UnavailableEngine[];
  /** Engines having every capability in `needs`, by priority (highest first). */
  candidates(needs: Capability[]): ScrapeEngine[];
  /** The engines a fetch would try, in order; throws 400 for an unknown or incapable forced engine. */
  plan(needs: Capability[], forced?: string | null): ScrapeEngine[];
  fetch(req: PageRequest, options: FetchOptions): Promise<FetchResult>;
  /**
   * The crawl engine (made on first use over this registry's engines); 400 when none can run here.
   * A crawl engine fetches with the scrape engines, so it is this registry's, not a second list.
   */
  crawlEngine(): CrawlEngine;
  /** Every engine of the build, both kinds, with whether it runs here and how it is (`GET /v1/status`). */
  describe(): EngineStatus[];
  /** Starts engines that have a `start` (in priority order). */
  start(): Promise<void>;
  /** Stops every engine (and closes the crawl engine), even when one fails; rethrows the first failure afterwards. */
  stop(): Promise<void>;
}

export function createEngineRegistry(initial: ScrapeEngine[] = [], options: RegistryOptions = {}): EngineRegistry {
  const unavailable = options.unavailable ?? [];
  const crawl: CrawlEngineSlot[] = (options.crawl ?? []).map((entry) => ({ id: entry.id, made: null }));
  const byId = new Map<string, ScrapeEngine>();
  // Kept sorted: stable by registration order among equal priorities.
  let ordered: ScrapeEngine[] = [];

  const registry: EngineRegistry = {
    register(engine) {
      if (!engine.id) throw new Error('engine id must be a non-empty string');
      if (byId.has(engine.id)) throw new Error(`engine "${engine.id}" is already registered`);
      byId.set(engine.id, engine);
      ordered = [...ordered, engine].sort((a, b) => b.priority - a.priority);
    },
    get: (id) => byId.get(id),
    list: () => [...ordered],
    unavailable: () => unavailable,
    candidates: (needs) => ordered.filter((e) => needs.every((n) => e.capabilities[n])),
    plan(needs, forced) {
      if (forced === undefined || forced === null) {
        const found = registry.candidates(needs);
        if (found.length === 0) throw noCapableEngine(needs, ordered, unavailable);
        return found;
      }
      const engine = byId.get(forced);
      if (!engine) {
        const off = unavailable.find((u) => u.id === forced);
        if (off) throw errors.validation(`engine: ${forced} is not available here: ${off.reason}`);
        const known = ordered.map((e) => e.id).join(', ') || 'none';
        throw errors.validation(`engine: unknown engine ${JSON.stringify(forced)} (enabled: ${known})`);
      }
      const missing = needs.filter((n) => !engine.capabilities[n]);
      if (missing.length > 0) {
        throw errors.validation(`engine: ${forced} cannot do what this request needs (${missing.join(', ')})`);
      }
      return [engine];
    },
    async fetch(req, { needs = [], engine, signal, escalate = true }) {
      const plan = registry.plan(needs, engine);
      const attempts: EngineAttempt[] = [];
      const started = Date.now();
      for (const [index, candidate] of plan.entries()) {
        signal.throwIfAborted();
        try {
          const snapshot = withFallbackWarnings(await candidate.fetchPage(req, signal), attempts);
          const policy = escalate && !engine && !candidate.capabilities.javascript ? options.escalate : undefined;
          const reason = policy?.(snapshot) ?? null;
          if (reason === null) return { snapshot, attempts };
          const budget = {
            timeoutMs: req.timeoutMs - (Date.now() - started),
            min: options.minEscalationBudgetMs ?? 2000,
          };
          const browsers = plan.slice(index + 1).filter((e) => e.capabilities.javascript);
          return { ...(await escalatePage(req, snapshot, reason, browsers, budget, signal)), attempts };
        } catch (err) {
          if (!(err instanceof EngineFallbackError)) throw err;
          attempts.push({ engine: candidate.id, reason: err.reason });
        }
      }
      throw allFellBack(req.url, attempts);
    },
    crawlEngine() {
      const reasons: string[] = [];
      for (const [index, slot] of crawl.entries()) {
        slot.made ??= options.crawl![index]!.create(registry);
        if (!isUnavailable(slot.made)) return slot.made;
        reasons.push(`${slot.id}: ${slot.made.unavailable}`);
      }
      throw errors.validation(`no crawl engine can run here${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`);
    },
    describe: () => describeEngines(options.catalog ?? [], ordered, unavailable, crawl),
    async start() {
      for (const engine of ordered) await engine.start?.();
    },
    async stop() {
      const crawlers = crawl.map((slot) => slot.made).filter((m): m is CrawlEngine => !!m && !isUnavailable(m));
      const results = await Promise.allSettled([
        ...ordered.map(async (e) => e.stop?.()),
        ...crawlers.map(async (c) => c.close?.()),
      ]);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
  for (const engine of initial) registry.register(engine);
  return registry;
}

/**
 * Renders a page another engine fetched with the first browser engine that succeeds. Failures are
 * not the client's problem here (the page was fetched): the first snapshot comes back with a
 * warning. Bugs (non-AppErrors) and caller aborts still propagate.
 */
async function escalatePage(
  req: PageRequest,
  fetched: PageSnapshot,
  reason: string,
  browsers: ScrapeEngine[],
  budget: { timeoutMs: number; min: number },
  signal: AbortSignal,
): Promise<Pick<FetchResult, 'snapshot' | 'escalation'>> {
  const note = (text: string) => ({ snapshot: { ...fetched, warnings: [...(fetched.warnings ?? []), text] } });
  if (browsers.length === 0)
    return note(`the page seems to need JavaScript (${reason}), but no browser engine is enabled`);
  if (budget.timeoutMs < budget.min) {
    return note(
      `the page seems to need JavaScript (${reason}), but too little of the time budget was left to render it`,
    );
  }
  const failures: string[] = [];
  for (const browser of browsers) {
    signal.throwIfAborted();
    try {
      const snapshot = await browser.fetchPage({ ...req, timeoutMs: budget.timeoutMs, prefetched: fetched }, signal);
      return { snapshot, escalation: { from: fetched.engine, reason } };
    } catch (err) {
      if (signal.aborted || !(err instanceof AppError || err instanceof EngineFallbackError)) throw err;
      failures.push(`${browser.id}: ${err instanceof AppError ? err.detail : err.reason}`);
    }
  }
  return note(
    `the page seems to need JavaScript (${reason}), but rendering it failed (${failures.join('; ')}); returned as fetched by ${fetched.engine}`,
  );
}

function withFallbackWarnings(snapshot: PageSnapshot, attempts: EngineAttempt[]): PageSnapshot {
  if (attempts.length === 0) return snapshot;
  const notes = attempts.map((a) => `engine ${a.engine} fell back: ${a.reason}`);
  return { ...snapshot, warnings: [...(snapshot.warnings ?? []), ...notes] };
}

function allFellBack(url: string, attempts: EngineAttempt[]): AppError {
  const reasons = attempts.map((a) => `${a.engine}: ${a.reason}`).join('; ');
  return errors.upstream(`every engine failed to fetch ${url} (${reasons})`);
}

function noCapableEngine(needs: Capability[], engines: ScrapeEngine[], unavailable: UnavailableEngine[]): AppError {
  const hints = unavailable
    .filter((u) => u.kind !== 'crawl' && needs.every((n) => u.capabilities.includes(n)))
    .map((u) => `; engine ${u.id} could, but it is not available here: ${u.reason}`)
    .join('');
  if (engines.length === 0) return errors.validation(`no scraping engine is enabled${hints}`);
  return errors.validation(`no enabled engine can do what this request needs (${needs.join(', ')})${hints}`);
}
