import { collectSitemapUrls } from '../../../../src/discovery/sitemap.js';
import { httpFetcher } from './http-fetcher.js';

/**
 * Child-process probe for the 100k-URL measurement: a fresh process gives an honest peak RSS.
 * Usage: node --expose-gc --import tsx measure-collect.ts <startUrl> <sitemapUrl>
 * Prints one JSON line: {count, errors, ms, baselineRssMiB, peakRssMiB, retainedHeapMiB}.
 */
const [startUrl, sitemapUrl] = process.argv.slice(2) as [string, string];
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const MiB = 1024 * 1024;
gc();
const baselineRss = process.memoryUsage().rss;
const heapBefore = process.memoryUsage().heapUsed;
const started = performance.now();
const result = await collectSitemapUrls(startUrl, { fetch: httpFetcher, robotsSitemaps: [sitemapUrl] });
const ms = performance.now() - started;
gc();
const retained = process.memoryUsage().heapUsed - heapBefore;
console.log(
  JSON.stringify({
    count: result.count,
    errors: result.errors.length,
    ms: Math.round(ms),
    baselineRssMiB: +(baselineRss / MiB).toFixed(1),
    peakRssMiB: +((process.resourceUsage().maxRSS * 1024) / MiB).toFixed(1),
    retainedHeapMiB: +(retained / MiB).toFixed(1),
    lastUrl: result.urls.at(-1)?.url,
  }),
);
