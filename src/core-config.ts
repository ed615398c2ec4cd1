import type { ProxyEntry } from './engine/proxy-pool.js';
import type { Parsed } from './settings.js';

/** Which parts a process runs: the API, the background workers, or both. */
export type Role = 'all' | 'api' | 'worker';

/**
 * The service's core settings, typed: what the composition root, the transports and the workers
 * read, and what modules see of the configuration besides their own settings (`ModuleContext`).
 * src/config.ts parses the environment into it; modules, engines and providers add their slices
 * (src/modules.ts, src/plugins.ts).
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
  /** LOG_FORMAT with `auto` decided by the main thread's standard output; colours only on a terminal. */
  log: { format: 'pretty' | 'json'; color: boolean };
  /** V8's heap growing factor for every thread (`--heap-growing-percent`); 0 leaves V8's heuristics. */
  heapGrowthPercent: number;
  auth: { jwt: { issuer: string; jwksUrl: string; audience: string; teamClaim: string } | null };
  outbound: { allowPrivate: boolean; denyDomains: string[]; allowAddresses: string[] };
  scrape: {
    timeoutMs: number;
    connectTimeoutMs: number;
    maxResponseBytes: number;
    hostedUrlTtlSeconds: number;
    inlineContentLimitBytes: number;
    convertThreads: number;
    /** The event loop converts waiting pages when every conversion thread is busy. */
    convertSharing: boolean;
  };
  idempotencyTtlSeconds: number;
  pubsub: Parsed['PUBSUB'];
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
}
