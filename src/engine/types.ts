/**
 * The scraping engine contract. An engine turns a PageRequest into a PageSnapshot:
 * the bytes a target served (and, for browsers, what the rendered page became).
 * Content conversion is not an engine's job; the pipeline does it for every engine alike.
 *
 * Adding an engine = one folder under `engines/` declaring it (`defineEngine`, engine-definition.ts),
 * plus one line in `engines/index.ts`. It is done when it passes `test/contract/engine.contract.ts`.
 *
 * @example
 * export function createEchoEngine(): ScrapeEngine {
 *   return {
 *     id: 'echo',
 *     priority: 1,
 *     capabilities: { ...NO_CAPABILITIES },
 *     async fetchPage(req) {
 *       const body = Buffer.from(`<p>${req.url}</p>`);
 *       return { url: req.url, finalUrl: req.url, statusCode: 200, headers: {}, contentType: 'text/html',
 *                body, text: body.toString(), engine: 'echo', redirects: [] };
 *     },
 *   };
 * }
 */
export interface ScrapeEngine {
  /** Unique id (`http`, `playwright`, ...); recorded in `page_metadata.engine`. */
  readonly id: string;
  readonly capabilities: EngineCapabilities;
  /** Higher is tried first among engines that have every needed capability. */
  readonly priority: number;
  start?(): Promise<void>;
  /**
   * Fetches one page within `req.timeoutMs` and `signal`. Throws an `AppError` to stop
   * (blocked target 403, unreachable 502, time budget 504) or an `EngineFallbackError`
   * when another capable engine should try instead.
   */
  fetchPage(req: PageRequest, signal: AbortSignal): Promise<PageSnapshot>;
  stop?(): Promise<void>;
  /** Pages it works on at once (a browser's pool); callers that run many pages keep below it. */
  readonly concurrency?: number;
  /** What it knows of its own health now, without doing anything (`GET /v1/status`); absent: always ready. */
  state?(): EngineState;
}

/**
 * An engine's health as it knows it: `idle` (nothing started yet: a browser starts on first use),
 * `ready`, or `failing` (the last attempt to start or reach what it drives failed; `detail` says
 * why, without secrets, and pages fall back to other engines meanwhile).
 */
export interface EngineState {
  status: 'idle' | 'ready' | 'failing';
  detail: string | null;
}

/** What an engine can do; a request lists what it needs and only capable engines see it. */
export interface EngineCapabilities {
  /** Runs page scripts (SPAs render). */
  javascript: boolean;
  /** Performs `actions` (click, fill_input, ...). */
  actions: boolean;
  /** Captures PNG screenshots. */
  screenshot: boolean;
  /** Prints HTML pages to PDF. */
  pdf: boolean;
  /** Emulates a screen size / mobile device. */
  screen: boolean;
  /** Routes through a proxy per request (country). */
  proxy: boolean;
}

export type Capability = keyof EngineCapabilities;

export const NO_CAPABILITIES: EngineCapabilities = Object.freeze({
  javascript: false,
  actions: false,
  screenshot: false,
  pdf: false,
  screen: false,
  proxy: false,
});

/**
 * Limits on browser settings (decisions.md, "Scrapes"). Request validation enforces them with a
 * 400 naming the field; browser engines enforce them again rather than trust their caller.
 */
export const BROWSER_LIMITS = Object.freeze({
  maxActions: 50,
  /** Sum of `wait.milliseconds` and explicit `wait_for.timeout`s. */
  maxTotalWaitMs: 60_000,
  maxWaitBeforeMs: 30_000,
  /** Selector actions (`wait_for` without `timeout`, `click`, `fill_input`, `hover`) wait this long for their element. */
  defaultSelectorTimeoutMs: 5_000,
  minScreenWidth: 100,
  maxScreenWidth: 3_840,
  minScreenHeight: 100,
  maxScreenHeight: 4_320,
  /** Longest `execute_js` script and `fill_input` value, in characters. */
  maxScriptChars: 100_000,
  /** Largest JSON result of one `execute_js`, in characters. */
  maxActionOutputChars: 1_000_000,
});

/** A browser action (decisions.md, "Scrapes"). Validated before it reaches an engine. */
export type PageAction =
  | { type: 'wait'; milliseconds: number }
  | { type: 'wait_for'; selector: string; timeout?: number }
  | { type: 'click'; selector: string }
  | { type: 'fill_input'; selector: string; value: string }
  | { type: 'press'; key: string }
  | { type: 'scroll'; direction: 'up' | 'down' | 'left' | 'right'; amount?: number }
  | { type: 'hover'; selector: string }
  | { type: 'execute_js'; script: string };

/** An upstream proxy chosen for this request. */
export interface ProxyChoice {
  /** `http://user:pass@host:port` (http, https or socks5). */
  url: string;
  country?: string;
}

export interface PageRequest {
  /** Absolute http(s) URL, already accepted by the outbound guard's syntax check. */
  url: string;
  /** Total budget for this fetch, including redirects and rendering. */
  timeoutMs: number;
  headers?: Record<string, string>;
  proxy?: ProxyChoice | null;
  /** Browser-only settings; engines without the capability never receive them. */
  browser?: {
    waitBeforeMs?: number;
    actions?: PageAction[];
    screenshot?: { fullPage: boolean } | null;
    /** Print the page to PDF (HTML targets); PDF targets return their own bytes. */
    printPdf?: boolean;
    screen?: { width: number; height: number; mobile: boolean };
    /** Keep media, fonts and ad/tracker hosts (blocked by default for speed). */
    loadAllResources?: boolean;
  };
  /**
   * The same URL as another engine just fetched it (the registry's escalation to a browser): a
   * browser engine may render these bytes instead of downloading the page again.
   */
  prefetched?: PageSnapshot;
}

export interface PageSnapshot {
  /** The URL that was requested. */
  url: string;
  /** Where the last redirect or navigation ended. */
  finalUrl: string;
  statusCode: number;
  /** Response headers of the final response, lowercase names. */
  headers: Record<string, string>;
  /** MIME type of the final response without parameters, lowercase (`text/html`). */
  contentType: string;
  /** Raw response bytes as served (for browsers too: the main document's bytes, before rendering). */
  body: Buffer;
  /** Decoded text for textual content types (HTML after rendering for browsers); absent for binary. */
  text?: string;
  /** Charset `body` was decoded from (`utf-8`, `shift_jis`, ...). */
  charset?: string;
  /** PNG bytes when a screenshot was requested. */
  screenshot?: Buffer;
  /** PDF bytes: the target's own for PDF targets, or the printed page when `printPdf`. */
  pdf?: Buffer;
  /** Results of `execute_js` actions, in order. */
  actionsOutput?: unknown[];
  /** Id of the engine that produced the snapshot. */
  engine: string;
  /** Every URL visited before `finalUrl`, in order. */
  redirects: string[];
  /** Non-fatal notes (e.g. a proxy for the requested country was unavailable). */
  warnings?: string[];
}
