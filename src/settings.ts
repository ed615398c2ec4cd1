import { z } from 'zod';
import { parseProxyList } from './engine/proxy-pool.js';

/**
 * Every core setting of the service, one row each (modules, engines and providers declare theirs
 * in their own folders; src/config.ts reads them all): its environment variable, its schema (which
 * parses the string form), its default and its documentation. src/config.ts reads the
 * environment through this table into AppConfig; `npm run config:docs` writes the README table
 * and `.env.example` from it (a test holds them together).
 */
export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'expected true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const int = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, { error: 'expected an integer' })
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
export const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });
export const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

export interface Setting {
  schema: z.ZodType;
  default?: string;
  doc: string;
}

export const SETTINGS = {
  PORT: {
    schema: int(0, 65535),
    default: '8080',
    doc: 'HTTP port of the API; with `--role worker`, of its health endpoints only (`/healthz`, `/readyz`), so run two roles on one machine with different ports. 0 picks a free port.',
  },
  HOST: {
    schema: z.string().min(1),
    default: '0.0.0.0',
    doc: "Interface the API (or a worker's health endpoints) listens on.",
  },
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
  LOG_FORMAT: {
    schema: z.enum(['auto', 'pretty', 'json']),
    default: 'auto',
    doc: 'Console log lines: `pretty` (one readable line each: time, level, message, then its fields), `json` (one JSON object a line, for log collectors), `auto`: pretty when standard output is a terminal, else json.',
  },
  HEAP_GROWTH_PERCENT: {
    schema: int(0, 1000),
    default: '30',
    doc: "How far (%) V8 lets each thread's heap grow past its live data before a full collection. Lower: less memory, more GC work; 0: V8's own heuristics (150-250 MB more resident under load).",
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
  CONVERT_THREADS: {
    schema: z.union([z.literal('auto'), int(0, 32)]),
    default: 'auto',
    doc: 'Threads converting pages for API requests, off the event loop. auto: one less than the CPUs; 0: convert inline.',
  },
  CONVERT_SHARING: {
    schema: bool,
    default: 'true',
    doc: "When every conversion thread is busy and pages wait, the API's event loop converts the oldest waiting page itself, one at a time between its I/O: on small machines it has CPU to spare. Pages over 256 K characters always wait for a thread. Under full load a request may then wait up to one conversion (10-80 ms) longer. false: pages only wait for a thread.",
  },
  HOSTED_URL_TTL_SECONDS: {
    schema: int(60, 90 * 86400),
    default: String(7 * 86400),
    doc: 'Lifetime of hosted content URLs (7 days, as the public API).',
  },
  INLINE_CONTENT_LIMIT_BYTES: {
    schema: int(1, 1 << 30),
    default: String(6 * 1024 * 1024),
    doc: 'Formats larger than this are not inlined (`size_exceeded`; 6 MB, as the public API).',
  },
  IDEMPOTENCY_TTL_SECONDS: {
    schema: int(60, 30 * 86400),
    default: '86400',
    doc: 'How long an Idempotency-Key is kept.',
  },
  WORKER_THREADS: { schema: int(1, 64), default: '1', doc: 'Batch runner threads per worker process.' },
  WORKER_CONCURRENCY: { schema: int(1, 512), default: '16', doc: 'Batch items one worker thread runs at once.' },
  WORKER_IDLE_STOP_MS: {
    schema: int(0, 86_400_000),
    default: '30000',
    doc: 'Job threads start when the database holds work for them and stop after this long without any (0: keep them all running).',
  },
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

export type Settings = typeof SETTINGS;

/** A table of settings (a module's, or the core's): environment variable → its row. */
export type SettingsTable = Record<string, Setting>;

/** What each setting of a table parses to (undefined when it has no default and is unset). */
export type ParsedOf<T extends SettingsTable> = {
  [K in keyof T]: T[K] extends { default: string } ? z.output<T[K]['schema']> : z.output<T[K]['schema']> | undefined;
};

/** What each core setting parses to. */
export type Parsed = ParsedOf<Settings>;
