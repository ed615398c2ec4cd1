import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The crawls module's settings (src/config.ts reads them with the core's). */
export const CRAWL_SETTINGS = {
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
} satisfies SettingsTable;

export interface CrawlSettings {
  threads: number;
  activePerThread: number;
  concurrency: number;
  hostConcurrency: number;
  hostDelayMs: number;
  maxPages: number;
  defaultTimeoutSeconds: number;
  maxTimeoutSeconds: number;
}

export function crawlSettings(v: ParsedOf<typeof CRAWL_SETTINGS>): CrawlSettings {
  return {
    threads: v.CRAWL_THREADS,
    activePerThread: v.CRAWL_ACTIVE_PER_THREAD,
    concurrency: v.CRAWL_CONCURRENCY,
    hostConcurrency: v.CRAWL_HOST_CONCURRENCY,
    hostDelayMs: v.CRAWL_HOST_DELAY_MS,
    maxPages: v.CRAWL_MAX_PAGES,
    defaultTimeoutSeconds: v.CRAWL_DEFAULT_TIMEOUT_S,
    maxTimeoutSeconds: v.CRAWL_MAX_TIMEOUT_S,
  };
}
