import type { ParsedOf, SettingsTable } from './settings.js';

/**
 * A part of the service that brings environment settings: a module, an engine, a model or search
 * provider. `settings` are its rows (README and `.env.example` are generated from them),
 * `configKey` where its typed slice lives on `AppConfig` (`config.crawls`, `config.browser`), and
 * `config` makes the slice from the parsed values. src/config.ts reads every part's rows with
 * the core's; a slice whose settings do not fit together throws `SettingsError`.
 *
 * @example
 * export const searxngProvider = defineSearchProvider({
 *   id: 'searxng',
 *   settings: SEARXNG_SETTINGS,          // SEARXNG_URL, SEARXNG_TIMEOUT_MS
 *   configKey: 'searxng',
 *   config: (v) => (v.SEARXNG_URL ? { url: v.SEARXNG_URL, timeoutMs: v.SEARXNG_TIMEOUT_MS } : null),
 *   ...
 * });
 */
export interface Configurable<K extends string = string, C = unknown> {
  /** Environment settings the part adds. */
  readonly settings?: SettingsTable;
  /** Where the parsed settings live on the configuration. Unique across every part. */
  readonly configKey?: K;
  /** The part's typed settings from the parsed values (its own rows and the core's). */
  config?(values: ParsedOf<SettingsTable>): C;
}

/** Settings that parse one by one but do not fit together; src/config.ts reports them with the others. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'SettingsError';
  }
}

/**
 * Throws `SettingsError` when some of `names` are set and others are not.
 *
 * @example
 * requireTogether(['MODEL_BASE_URL', 'MODEL_NAME'], v); // "MODEL_NAME: required when MODEL_BASE_URL is set"
 */
export function requireTogether(names: readonly string[], values: Record<string, unknown>): void {
  const set = names.filter((n) => values[n] !== undefined);
  if (set.length > 0 && set.length < names.length) {
    const missing = names.filter((n) => values[n] === undefined);
    throw new SettingsError([
      `${missing.join(', ')}: required when ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set`,
    ]);
  }
}

/** `A | B` → `A & B`. */
export type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never;
type ConfigEntry<P> = P extends { configKey?: infer K; config?(values: never): infer C }
  ? [K] extends [string]
    ? Record<K, C>
    : never
  : never;

/** The configuration slices of a union of parts, by their `configKey`: `{ crawls: CrawlSettings } & …`. */
export type ConfigsOf<P> = UnionToIntersection<ConfigEntry<P>>;
