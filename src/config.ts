import os from 'node:os';
import path from 'node:path';
import type { CoreConfig } from './core-config.js';
import { APP_MODULES, type ModuleConfigs } from './modules.js';
import { SETTINGS, type Parsed, type Setting, type Settings } from './settings.js';

// The only reader of the environment: parses it through the core's table (src/settings.ts) and
// every module's into the typed AppConfig, reporting every bad variable at once.

export type { CoreConfig, Role } from './core-config.js';

/** Every setting: the core's, then each module's, in module order. Throws on a name declared twice. */
export function allSettings(): [string, Setting][] {
  const rows: [string, Setting][] = Object.entries(SETTINGS);
  const seen = new Set(rows.map(([name]) => name));
  for (const module of APP_MODULES) {
    for (const [name, setting] of Object.entries(module.settings ?? {})) {
      if (seen.has(name)) throw new Error(`setting ${name} of module ${module.name} is declared twice`);
      seen.add(name);
      rows.push([name, setting]);
    }
  }
  return rows;
}

/** The typed configuration every part of the service receives: the core's and every module's slice. */
export type AppConfig = CoreConfig & ModuleConfigs;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (default: `process.env`); throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
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
  requireTogether(['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'], v, problems);
  requireTogether(['AUTH_JWT_ISSUER', 'AUTH_JWT_JWKS_URL', 'AUTH_JWT_AUDIENCE'], v, problems);
  requireTogether(['MODEL_BASE_URL', 'MODEL_NAME'], v, problems);
  if (v.MODEL_MAX_OUTPUT_TOKENS >= v.MODEL_CONTEXT_TOKENS) {
    problems.push('MODEL_MAX_OUTPUT_TOKENS: must be smaller than MODEL_CONTEXT_TOKENS (the prompt needs room too)');
  }
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
      userAgent: v.SCRAPE_USER_AGENT ?? null,
      hostedUrlTtlSeconds: v.HOSTED_URL_TTL_SECONDS,
      inlineContentLimitBytes: v.INLINE_CONTENT_LIMIT_BYTES,
      convertThreads: v.CONVERT_THREADS === 'auto' ? Math.min(4, os.availableParallelism() - 1) : v.CONVERT_THREADS,
      convertSharing: v.CONVERT_SHARING,
    },
    idempotencyTtlSeconds: v.IDEMPOTENCY_TTL_SECONDS,
    pubsub: v.PUBSUB,
    browser: {
      enabled: v.BROWSER_ENABLED,
      chromiumPath: v.CHROMIUM_PATH ?? null,
      poolSize: v.BROWSER_POOL_SIZE,
      restartAfterPages: v.BROWSER_RESTART_AFTER_PAGES,
      pageHeapMb: v.BROWSER_PAGE_HEAP_MB,
    },
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
    model: v.MODEL_BASE_URL
      ? {
          baseUrl: v.MODEL_BASE_URL,
          apiKey: v.MODEL_API_KEY ?? null,
          name: v.MODEL_NAME!,
          timeoutMs: v.MODEL_TIMEOUT_MS,
          maxRetries: v.MODEL_MAX_RETRIES,
          contextTokens: v.MODEL_CONTEXT_TOKENS,
          maxOutputTokens: v.MODEL_MAX_OUTPUT_TOKENS,
          structuredOutput: v.MODEL_STRUCTURED_OUTPUT,
        }
      : null,
    search: { searxng: v.SEARXNG_URL ? { url: v.SEARXNG_URL, timeoutMs: v.SEARXNG_TIMEOUT_MS } : null },
  };
  const modules: Record<string, unknown> = {};
  for (const module of APP_MODULES) {
    if (module.configKey && module.config) modules[module.configKey] = module.config(values as never);
  }
  return { ...core, ...modules } as AppConfig;
}

function requireTogether(names: (keyof Settings)[], v: Partial<Parsed>, problems: string[]): void {
  const set = names.filter((n) => v[n] !== undefined);
  if (set.length > 0 && set.length < names.length) {
    const missing = names.filter((n) => v[n] === undefined);
    problems.push(`${missing.join(', ')}: required when ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set`);
  }
}

/** Where clients reach the service (hosted URLs, docs links). */
export function publicBaseUrl(config: AppConfig, boundPort?: number): string {
  const base = config.server.publicBaseUrl ?? `http://localhost:${boundPort ?? config.server.port}`;
  return base.replace(/\/+$/, '');
}
