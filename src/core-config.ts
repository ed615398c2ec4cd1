import type { ProxyEntry } from './engine/proxy-pool.js';
import type { Parsed } from './settings.js';

/** Which parts a process runs: the API, the background workers, or both. */
export type Role = 'all' | 'api' | 'worker';

/**
 * The service's core settings, typed: what the composition root, the transports and the workers
 * read, and what modules see of the configuration besides their own settings (`ModuleContext`).
 * src/config.ts parses the environment into it; modules add their slices (src/modules.ts).
 */
export interface CoreConfig {
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
  /** V8's heap growing factor for every thread (`--heap-growing-percent`); 0 leaves V8's heuristics. */
  heapGrowthPercent: number;
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
    /** The event loop converts waiting pages when every conversion thread is busy. */
    convertSharing: boolean;
  };
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
    /** Job threads stop after this long without work; 0 keeps them running. */
    idleStopMs: number;
    hostConcurrency: number;
    leaseMs: number;
    maxAttempts: number;
    retryBaseMs: number;
  };
  retentionDays: number;
  /** The OpenAI-compatible model server (MODEL_*); null when MODEL_BASE_URL is unset. */
  model: {
    baseUrl: string;
    apiKey: string | null;
    name: string;
    timeoutMs: number;
    maxRetries: number;
    contextTokens: number;
    maxOutputTokens: number;
    structuredOutput: Parsed['MODEL_STRUCTURED_OUTPUT'];
  } | null;
  search: { searxng: { url: string; timeoutMs: number } | null };
}
