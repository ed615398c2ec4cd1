import path from 'node:path';
import type * as CrawleeCheerio from '@crawlee/cheerio';

/**
 * The parts of Crawlee a crawl run uses (@crawlee/cheerio re-exports BasicCrawler, Request,
 * Configuration and Log too), loaded on first use: the packages take seconds to load, and
 * processes that never crawl should not pay for them.
 */
export type CheerioModule = typeof CrawleeCheerio;

let cheerio: Promise<CheerioModule> | null = null;

export const loadCheerio = (): Promise<CheerioModule> => (cheerio ??= import('@crawlee/cheerio'));

/**
 * A Crawlee Configuration for one run: storage in memory only (and, should anything insist on
 * a directory, one under DATA_DIR), no purging of shared directories, no state persistence, and
 * system-load sampling rare (concurrency is fixed, so autoscaling has nothing to decide).
 * Environment variables (CRAWLEE_*) are overridden where they could send data elsewhere.
 */
export function runConfiguration(mod: Pick<CheerioModule, 'Configuration'>, dataDir: string) {
  return new mod.Configuration({
    persistStorage: false,
    purgeOnStart: false,
    storageClientOptions: {
      persistStorage: false,
      writeMetadata: false,
      localDataDirectory: path.join(dataDir, 'crawlee'),
    },
    persistStateIntervalMillis: 3_600_000,
    systemInfoIntervalMillis: 60_000,
  });
}

/** A Crawlee logger that says nothing: outcomes are recorded by the crawl, errors travel as values. */
export function silentLog(mod: Pick<CheerioModule, 'Log' | 'LogLevel'>) {
  return new mod.Log({ level: mod.LogLevel.OFF });
}
