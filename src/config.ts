import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseProxyList, type ProxyEntry } from './engine/proxy-pool.js';

/**
 * The only reader of the environment. Every setting is one row of SETTINGS: its
 * variable, its schema (which parses the string form) and its documentation. The README
 * table and `.env.example` list exactly these rows (a test holds them together).
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, { error: 'expected an integer' })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

interface Setting {
  schema: z.ZodType;
  default?: string;
  doc: string;
}

export const SETTINGS = {
  PORT: { schema: int(0, 65535), default: '8080', doc: 'HTTP port of the API (0 picks a free port).' },
  HOST: { schema: z.string().min(1), default: '0.0.0.0', doc: 'Interface the API listens on.' },
  PUBLIC_BASE_URL: {
    schema: httpUrl,
    doc: 'Address clients reach the service at; used in hosted URLs. Default: http://localhost:PORT.',
  },
  DOCS_URL: {
    schema: httpUrl,
    doc: 'Base of the error `type` URLs (`{DOCS_URL}/api-reference/errors/<slug>`). Default: PUBLIC_BASE_URL/docs, served by the service.',
  },
  DATA_DIR: {
    schema: z.string().min(1),
    default: './data',
    doc: 'Embedded database, local objects, generated secrets.',
  },
  DATABASE_URL: {
    schema: z.url({ protocol: /^postgres(ql)?$/, error: 'expected a postgres:// URL' }),
    doc: 'PostgreSQL server. Unset: embedded PGlite in DATA_DIR.',
  },
  DATABASE_POOL_SIZE: { schema: int(1, 200), default: '10', doc: 'Connections per process to the database.' },
  S3_ENDPOINT: { schema: httpUrl, doc: 'S3/MinIO endpoint URL. Unset: objects live in DATA_DIR/objects.' },
  S3_ACCESS_KEY: { schema: z.string().min(1), doc: 'S3 access key.' },
  S3_SECRET_KEY: { schema: z.string().min(1), doc: 'S3 secret key.' },
  S3_BUCKET: { schema: z.string().min(3).max(63), default: 'web-content', doc: 'Bucket; created if missing.' },
  S3_REGION: { schema: z.string().min(1), default: 'us-east-1', doc: 'S3 region.' },
  SIGNING_SECRET: {
    schema: z.string().min(32, { error: 'must be at least 32 characters' }),
    doc: 'HMAC secret for signed local object URLs and map cursors (≥ 32 characters). Unset: generated once and kept in the database, so every process sharing it agrees.',
  },
  LOG_LEVEL: {
    schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    doc: 'pino log level.',
  },
  BODY_LIMIT_BYTES: {
    schema: int(1024, 1 << 30),
    default: String(10 * 1024 * 1024),
    doc: 'Largest request body (413 above).',
  },
  SHUTDOWN_TIMEOUT_MS: { schema: int(0, 600_000), default: '15000', doc: 'Time to drain requests on SIGTERM.' },
  AUTH_JWT_ISSUER: { schema: z.string().min(1), doc: 'Identity provider issuer (`iss`); enables JWT bearer tokens.' },
  AUTH_JWT_JWKS_URL: { schema: httpUrl, doc: 'JWKS URL of the identity provider.' },
  AUTH_JWT_AUDIENCE: { schema: z.string().min(1), doc: 'Expected `aud` of access tokens.' },
  AUTH_JWT_TEAM_CLAIM: { schema: z.string().min(1), default: 'team_id', doc: 'Claim that names the team.' },
  OUTBOUND_ALLOW_PRIVATE: {
    schema: bool,
    default: 'false',
    doc: 'Allow outbound requests to loopback and private networks (development and tests only).',
  },
  OUTBOUND_DENY_DOMAINS: {
    schema: list,
    default: '',
    doc: 'Comma-separated domains never fetched (subdomains included).',
  },
  OUTBOUND_ALLOW_ADDRESSES: {
    schema: list,
    default: '',
    doc: 'Comma-separated addresses reachable although private: IP, CIDR, IP:port or [IPv6]:port (an internal site). Metadata addresses stay refused unless listed.',
  },
  SCRAPE_TIMEOUT_MS: { schema: int(1000, 600_000), default: '30000', doc: 'Time budget of one page fetch.' },
  SCRAPE_CONNECT_TIMEOUT_MS: { schema: int(100, 120_000), default: '10000', doc: 'TCP/TLS connect timeout.' },
  SCRAPE_MAX_RESPONSE_BYTES: {
    schema: int(1024, 1 << 30),
    default: String(20 * 1024 * 1024),
    doc: 'Largest response body an engine downloads.',
  },
  SCRAPE_USER_AGENT: {
    schema: z.string().min(1),
    doc: 'User-Agent of plain HTTP fetches. Unset: a realistic browser header set (got-scraping).',
  },
  CONVERT_THREADS: {
    schema: z.union([z.literal('auto'), int(0, 32)]),
    default: 'auto',
    doc: 'Threads converting pages for API requests, off the event loop. auto: one less than the CPUs; 0: convert inline.',
  },
  HOSTED_URL_TTL_SECONDS: {
    schema: int(60, 90 * 86400),
    default: String(7 * 86400),
    doc: 'Lifetime of hosted content URLs (spec: 7 days).',
  },
  INLINE_CONTENT_LIMIT_BYTES: {
    schema: int(1, 1 << 30),
    default: String(6 * 1024 * 1024),
    doc: 'Formats larger than this are not inlined (`size_exceeded`; spec: 6 MB).',
  },
  MAP_TIME_BUDGET_MS: {
    schema: int(1000, 300_000),
    default: '15000',
    doc: 'Time a map spends discovering (sitemaps and link discovery side by side); it answers with what it found by then.',
  },
  MAP_MAX_PAGES: {
    schema: int(0, 10_000),
    default: '50',
    doc: 'Pages a map reads for links, from the start page outward (0: sitemaps only).',
  },
  MAP_MAX_URLS: { schema: int(1, 1_000_000), default: '100000', doc: 'URLs one map lists at most.' },
  IDEMPOTENCY_TTL_SECONDS: {
    schema: int(60, 30 * 86400),
    default: '86400',
    doc: 'How long an Idempotency-Key is kept.',
  },
  WORKER_THREADS: { schema: int(1, 64), default: '1', doc: 'Batch runner threads per worker process.' },
  WORKER_CONCURRENCY: { schema: int(1, 512), default: '16', doc: 'Batch items one worker thread runs at once.' },
  WORKER_HOST_CONCURRENCY: {
    schema: int(1, 10_000),
    default: '8',
    doc: 'Items fetched from one host at once, across all worker processes (politeness).',
  },
  WORKER_LEASE_MS: {
    schema: int(2000, 600_000),
    default: '30000',
    doc: 'Lease of a claimed work item; renewed while it runs, returned to the queue when its worker dies.',
  },
  WORKER_MAX_ATTEMPTS: { schema: int(1, 20), default: '3', doc: 'Attempts of an item before it fails.' },
  WORKER_RETRY_BASE_MS: {
    schema: int(0, 3_600_000),
    default: '5000',
    doc: 'First retry delay of a failed item; each further retry waits 4× longer.',
  },
  CRAWL_THREADS: {
    schema: int(0, 64),
    default: '1',
    doc: 'Crawl runner threads per worker process (0: this process runs no crawls).',
  },
  CRAWL_ACTIVE_PER_THREAD: {
    schema: int(1, 64),
    default: '4',
    doc: 'Crawls one crawl runner thread works on at once.',
  },
  CRAWL_CONCURRENCY: { schema: int(1, 256), default: '8', doc: 'Pages of one crawl fetched at once.' },
  CRAWL_HOST_CONCURRENCY: {
    schema: int(1, 256),
    default: '4',
    doc: 'Pages of one crawl fetched from one host at once (politeness; robots.txt Crawl-delay also applies).',
  },
  CRAWL_HOST_DELAY_MS: {
    schema: int(0, 600_000),
    default: '0',
    doc: 'Least time between two fetches of one crawl to one host; a larger robots.txt Crawl-delay wins.',
  },
  CRAWL_MAX_PAGES: { schema: int(1, 100_000), default: '10000', doc: 'Largest `max_pages` a crawl may ask for.' },
  CRAWL_DEFAULT_TIMEOUT_S: {
    schema: int(1, 604_800),
    default: '1800',
    doc: 'Time a crawl runs when the request sets no `timeout` (seconds); it then completes with what it reached.',
  },
  CRAWL_MAX_TIMEOUT_S: {
    schema: int(1, 604_800),
    default: '86400',
    doc: 'Largest `timeout` a crawl may ask for (seconds).',
  },
  WEBHOOK_RETRY_SCALE: {
    schema: z
      .string()
      .regex(/^\d+(\.\d+)?$/, { error: 'expected a number' })
      .transform(Number)
      .pipe(z.number().min(0).max(100)),
    default: '1',
    doc: 'Factor on the webhook retry schedule (2, 4, 7, 15 min); 0.001 makes it seconds for tests.',
  },
  WEBHOOK_TIMEOUT_MS: { schema: int(100, 120_000), default: '30000', doc: 'A receiver must answer within this.' },
  WEBHOOK_ALLOW_HTTP: {
    schema: bool,
    default: 'false',
    doc: 'Accept plain http:// webhook URLs (development); by default they must be https.',
  },
  RETENTION_DAYS: {
    schema: int(1, 36_500),
    default: '30',
    doc: 'Stored pages, scrapes, batches and delivery records older than this are deleted.',
  },
  PUBSUB: {
    schema: z.enum(['auto', 'memory', 'postgres']),
    default: 'auto',
    doc: 'Progress events: `memory` (one process) or `postgres` (LISTEN/NOTIFY). `auto`: postgres when DATABASE_URL is set.',
  },
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
  PROXY_URLS: {
    schema: list.transform((entries, ctx) => {
      try {
        return parseProxyList(entries);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
    default: '',
    doc: 'Comma-separated upstream proxies used by every engine: `scheme://[user:pass@]host:port[#CC|CC]` (http, https, socks4, socks5); the fragment lists the countries it exits in (`http://u:p@10.0.0.5:8000#us|ca`). A request with `country` uses a proxy tagged with it, others use untagged proxies; none: direct.',
  },
} satisfies Record<string, Setting>;

type Settings = typeof SETTINGS;
type Parsed = {
  [K in keyof Settings]: Settings[K] extends { default: string }
    ? z.output<Settings[K]['schema']>
    : z.output<Settings[K]['schema']> | undefined;
};

/** The typed configuration every part of the service receives. */
export interface AppConfig {
  server: {
    port: number;
    host: string;
    publicBaseUrl: string | null;
    bodyLimitBytes: number;
    shutdownTimeoutMs: number;
  };
  docsUrl: string | null;
  dataDir: string;
  database: { url: string | null; poolSize: number };
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string } | null;
  signingSecret: string | null;
  logLevel: Parsed['LOG_LEVEL'];
  auth: { jwt: { issuer: string; jwksUrl: string; audience: string; teamClaim: string } | null };
  outbound: { allowPrivate: boolean; denyDomains: string[]; allowAddresses: string[] };
  scrape: {
    timeoutMs: number;
    connectTimeoutMs: number;
    maxResponseBytes: number;
    userAgent: string | null;
    hostedUrlTtlSeconds: number;
    inlineContentLimitBytes: number;
    convertThreads: number;
  };
  map: { timeBudgetMs: number; maxPages: number; maxUrls: number };
  idempotencyTtlSeconds: number;
  pubsub: Parsed['PUBSUB'];
  browser: {
    enabled: boolean;
    /** Explicit CHROMIUM_PATH; null: detected at start. */
    chromiumPath: string | null;
    poolSize: number;
    restartAfterPages: number;
    pageHeapMb: number;
  };
  proxies: ProxyEntry[];
  workers: {
    threads: number;
    concurrency: number;
    hostConcurrency: number;
    leaseMs: number;
    maxAttempts: number;
    retryBaseMs: number;
  };
  webhooks: { retryScale: number; timeoutMs: number; allowHttp: boolean };
  crawls: {
    threads: number;
    activePerThread: number;
    concurrency: number;
    hostConcurrency: number;
    hostDelayMs: number;
    maxPages: number;
    defaultTimeoutSeconds: number;
    maxTimeoutSeconds: number;
  };
  retentionDays: number;
}

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
  for (const [name, setting] of Object.entries(SETTINGS) as [string, Setting][]) {
    const raw = env[name] === undefined || env[name] === '' ? setting.default : env[name];
    if (raw === undefined) continue;
    const result = setting.schema.safeParse(raw);
    if (result.success) values[name] = result.data;
    else problems.push(`${name}=${JSON.stringify(raw)}: ${result.error.issues.map((i) => i.message).join('; ')}`);
  }
  const v = values as Parsed;
  requireTogether(['S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'], v, problems);
  requireTogether(['AUTH_JWT_ISSUER', 'AUTH_JWT_JWKS_URL', 'AUTH_JWT_AUDIENCE'], v, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
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
    },
    map: { timeBudgetMs: v.MAP_TIME_BUDGET_MS, maxPages: v.MAP_MAX_PAGES, maxUrls: v.MAP_MAX_URLS },
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
      hostConcurrency: v.WORKER_HOST_CONCURRENCY,
      leaseMs: v.WORKER_LEASE_MS,
      maxAttempts: v.WORKER_MAX_ATTEMPTS,
      retryBaseMs: v.WORKER_RETRY_BASE_MS,
    },
    webhooks: { retryScale: v.WEBHOOK_RETRY_SCALE, timeoutMs: v.WEBHOOK_TIMEOUT_MS, allowHttp: v.WEBHOOK_ALLOW_HTTP },
    crawls: {
      threads: v.CRAWL_THREADS,
      activePerThread: v.CRAWL_ACTIVE_PER_THREAD,
      concurrency: v.CRAWL_CONCURRENCY,
      hostConcurrency: v.CRAWL_HOST_CONCURRENCY,
      hostDelayMs: v.CRAWL_HOST_DELAY_MS,
      maxPages: v.CRAWL_MAX_PAGES,
      defaultTimeoutSeconds: v.CRAWL_DEFAULT_TIMEOUT_S,
      maxTimeoutSeconds: v.CRAWL_MAX_TIMEOUT_S,
    },
    retentionDays: v.RETENTION_DAYS,
  };
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
