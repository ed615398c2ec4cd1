import os from 'node:os';
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import { loadConfig, type AppConfig } from '../../src/config.js';

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object | null ? DeepPartial<NonNullable<T[K]>> | T[K] : T[K] };

/** A literal config: the defaults (no environment read) with `overrides` merged in. */
export function testConfig(overrides: DeepPartial<AppConfig> = {}): AppConfig {
  const base = loadConfig({});
  const merged = merge(base, overrides) as AppConfig;
  if (!overrides.dataDir) merged.dataDir = tempDir('gleaner-data-');
  // JSON whatever runs the tests (a terminal would make LOG_FORMAT=auto pretty).
  merged.log = { format: overrides.log?.format ?? 'json', color: false };
  merged.logLevel = overrides.logLevel ?? (process.env.TEST_LOG_LEVEL as AppConfig['logLevel'] | undefined) ?? 'silent';
  if (overrides.server?.port === undefined) merged.server.port = 0;
  if (overrides.server?.host === undefined) merged.server.host = '127.0.0.1';
  // Job threads boot with the app (in startTestApp's budget) and stay up, so a test's own
  // timeout does not also pay for a thread's boot on a loaded machine. Starting and stopping
  // them on demand (the service's default) is tested by workers-on-demand.test.ts and by the
  // e2e tests, which run the service with its defaults.
  if (overrides.workers?.idleStopMs === undefined) merged.workers.idleStopMs = 0;
  return merged;
}

/**
 * The outbound policy of a test app: private addresses refused, as in production, except these
 * ports on 127.0.0.1 (the test's fixture sites and webhook receivers).
 */
export function allowLocalPorts(...ports: number[]): AppConfig['outbound'] {
  return { allowPrivate: false, denyDomains: [], allowAddresses: ports.map((port) => `127.0.0.1:${port}`) };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (over === null || typeof over !== 'object' || Array.isArray(over) || base === null || typeof base !== 'object')
    return over;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(over)) out[k] = merge((base as Record<string, unknown>)[k], v);
  return out;
}
