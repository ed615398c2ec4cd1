import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { requireTogether, SettingsError, type Configurable } from './configurable.js';
import type { CoreConfig } from './core-config.js';
import { APP_MODULES, type ModuleConfigs } from './modules.js';
import { ENGINES, MODEL_PROVIDERS, SEARCH_PROVIDERS, type PluginConfigs } from './plugins.js';
import { SETTINGS, type Parsed, type Setting } from './settings.js';

// The only reader of the environment: parses it through the core's table (src/settings.ts) and
// every module's, engine's and provider's into the typed AppConfig, reporting every bad variable
// at once.

export type { CoreConfig, Role } from './core-config.js';

/** Every part that declares settings (src/modules.ts, src/plugins.ts), named for messages. */
function configurableParts(): { owner: string; part: Configurable }[] {
  return [
    ...APP_MODULES.map((m) => ({ owner: `module ${m.name}`, part: m })),
    ...ENGINES.map((e) => ({ owner: `engine ${e.id}`, part: e as Configurable })),
    ...MODEL_PROVIDERS.map((p) => ({ owner: `model provider ${p.id}`, part: p as Configurable })),
    ...SEARCH_PROVIDERS.map((p) => ({ owner: `search provider ${p.id}`, part: p as Configurable })),
  ];
}

/**
 * Every setting: the core's, then each module's (in module order), engine's and provider's (by
 * priority). Throws on a name declared twice.
 */
export function allSettings(): [string, Setting][] {
  const rows: [string, Setting][] = Object.entries(SETTINGS);
  const seen = new Set(rows.map(([name]) => name));
  for (const { owner, part } of configurableParts()) {
    for (const [name, setting] of Object.entries(part.settings ?? {})) {
      if (seen.has(name)) throw new Error(`setting ${name} of ${owner} is declared twice`);
      seen.add(name);
      rows.push([name, setting]);
    }
  }
  return rows;
}

/** The typed configuration every part of the service receives: the core's, every module's, engine's and provider's slice. */
export type AppConfig = CoreConfig & ModuleConfigs & PluginConfigs;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Loads a `.env` file (default: the working directory's, as `.env.example` invites) into
 * `process.env` with Node's own parser. A variable already in the environment wins over the file,
 * even when set empty, so `PORT=9000 npm start` overrides a `.env` that says 8080. Returns the
 * file read, or null when there is none; a file that cannot be read is a ConfigError.
 *
 * @example
 * const envFile = loadEnvFile(); // before loadConfig()
 */
export function loadEnvFile(file = path.resolve('.env')): string | null {
  if (!fs.existsSync(file)) return null;
  try {
    process.loadEnvFile(file);
  } catch (err) {
    throw new ConfigError([`${file}: could not be read (${err instanceof Error ? err.message : String(err)})`]);
  }
  return file;
}

/**
 * Parses an environment (default: `process.env`); throws ConfigError naming every bad variable.
 * `terminal`: whether standard output is a terminal (LOG_FORMAT=auto; worker threads cannot tell).
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  terminal = process.stdout.isTTY === true,
): AppConfig {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, setting] of allSettings()) {
    const raw = env[name] === undefined || env[name] === '' ? setting.default : env[name];
    if (raw === undefined) continue;
    const result = setting.schema.safeParse(raw);
    if (result.success) values[name] = result.data;
    else problems.push(`${name}=${JSON.stringify(raw)}: ${result.error.issues.map((i) => i.message).join('; ')}`);
  }
  const v = values as Parsed;
  for (const names of [
    ['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'],
    ['AUTH_JWT_ISSUER', 'AUTH_JWT_JWKS_URL', 'AUTH_JWT_AUDIENCE'],
  ]) {
    collect(problems, () => requireTogether(names, v));
  }
  const slices = partSlices(values, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  const core: CoreConfig = {
    server: {
      port: v.PORT,
      host: v.HOST,
      publicBaseUrl: v.PUBLIC_BASE_URL ?? null,
      bodyLimitBytes: v.BODY_LIMIT_BYTES,
      shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    },
    docsUrl: v.DOCS_URL ?? null,
    dataDir: path.resolve(v.DATA_DIR),
    database: { url: v.DATABASE_URL ?? null, poolSize: v.DATABASE_POOL_SIZE },
    s3: v.S3_ENDPOINT
      ? {
          endpoint: v.S3_ENDPOINT,
          accessKey: v.S3_ACCESS_KEY!,
          secretKey: v.S3_SECRET_KEY!,
          bucket: v.S3_BUCKET,
          region: v.S3_REGION,
        }
      : null,
    signingSecret: v.SIGNING_SECRET ?? null,
    logLevel: v.LOG_LEVEL,
    log: {
      format: v.LOG_FORMAT === 'auto' ? (terminal ? 'pretty' : 'json') : v.LOG_FORMAT,
      color: terminal,
    },
    heapGrowthPercent: v.HEAP_GROWTH_PERCENT,
    auth: {
      jwt: v.AUTH_JWT_ISSUER
        ? {
            issuer: v.AUTH_JWT_ISSUER,
            jwksUrl: v.AUTH_JWT_JWKS_URL!,
            audience: v.AUTH_JWT_AUDIENCE!,
            teamClaim: v.AUTH_JWT_TEAM_CLAIM,
          }
        : null,
    },
    outbound: {
      allowPrivate: v.OUTBOUND_ALLOW_PRIVATE,
      denyDomains: v.OUTBOUND_DENY_DOMAINS,
      allowAddresses: v.OUTBOUND_ALLOW_ADDRESSES,
    },
    scrape: {
      timeoutMs: v.SCRAPE_TIMEOUT_MS,
      connectTimeoutMs: v.SCRAPE_CONNECT_TIMEOUT_MS,
      maxResponseBytes: v.SCRAPE_MAX_RESPONSE_BYTES,
      hostedUrlTtlSeconds: v.HOSTED_URL_TTL_SECONDS,
      inlineContentLimitBytes: v.INLINE_CONTENT_LIMIT_BYTES,
      convertThreads: v.CONVERT_THREADS === 'auto' ? Math.min(4, os.availableParallelism() - 1) : v.CONVERT_THREADS,
      convertSharing: v.CONVERT_SHARING,
    },
    idempotencyTtlSeconds: v.IDEMPOTENCY_TTL_SECONDS,
    pubsub: v.PUBSUB,
    proxies: v.PROXY_URLS,
    workers: {
      threads: v.WORKER_THREADS,
      concurrency: v.WORKER_CONCURRENCY,
      idleStopMs: v.WORKER_IDLE_STOP_MS,
      hostConcurrency: v.WORKER_HOST_CONCURRENCY,
      leaseMs: v.WORKER_LEASE_MS,
      maxAttempts: v.WORKER_MAX_ATTEMPTS,
      retryBaseMs: v.WORKER_RETRY_BASE_MS,
    },
    retentionDays: v.RETENTION_DAYS,
  };
  for (const key of Object.keys(slices)) {
    if (key in core) throw new Error(`configKey ${key} is also a key of the core configuration`);
  }
  return { ...core, ...slices } as AppConfig;
}

/**
 * Each part's slice by its configKey. A part whose settings do not fit together adds its
 * problems; anything else it throws is a bug, unless some setting was already bad (then the
 * part may have read a value that is missing because of it).
 */
function partSlices(values: Record<string, unknown>, problems: string[]): Record<string, unknown> {
  const slices: Record<string, unknown> = {};
  for (const { owner, part } of configurableParts()) {
    if (!part.configKey || !part.config) continue;
    if (part.configKey in slices) throw new Error(`configKey ${part.configKey} of ${owner} is taken`);
    const failed = problems.length;
    collect(problems, () => (slices[part.configKey!] = part.config!(values as never)), failed > 0);
  }
  return slices;
}

function collect(problems: string[], run: () => unknown, tolerant = false): void {
  try {
    run();
  } catch (err) {
    if (err instanceof SettingsError) problems.push(...err.problems);
    else if (!tolerant) throw err;
  }
}

/** Where clients reach the service (hosted URLs, docs links). */
export function publicBaseUrl(config: AppConfig, boundPort?: number): string {
  const base = config.server.publicBaseUrl ?? `http://localhost:${boundPort ?? config.server.port}`;
  return base.replace(/\/+$/, '');
}
