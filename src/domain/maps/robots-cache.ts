import { fetchRobotsTxt, type RobotsFetchResult } from '../../discovery/robots.js';
import type { DiscoveryFetcher } from '../../discovery/types.js';

/**
 * robots.txt of every origin one map touches, each fetched once (sitemap collection and link
 * discovery share the answer), and the crawl-delay pacing per origin.
 */
export interface RobotsCache {
  /** The robots.txt result of `url`'s origin; throws only when the map's signal aborts. */
  get(url: string): Promise<RobotsFetchResult>;
  /**
   * When a fetch of `url` may start, honouring the origin's `Crawl-delay` between fetch starts
   * (epoch ms; now when there is no delay). Reserves the slot.
   */
  reserve(url: string, robots: RobotsFetchResult): number;
  /** Every origin's result so far, in first-asked order. */
  results(): RobotsFetchResult[];
}

export function createRobotsCache(options: {
  fetch: DiscoveryFetcher;
  userAgent: string;
  signal: AbortSignal;
}): RobotsCache {
  const byOrigin = new Map<string, Promise<RobotsFetchResult>>();
  const settled: RobotsFetchResult[] = [];
  const nextSlot = new Map<string, number>();
  return {
    get(url) {
      const origin = new URL(url).origin;
      let pending = byOrigin.get(origin);
      if (pending === undefined) {
        pending = fetchRobotsTxt(url, { fetch: options.fetch, userAgent: options.userAgent, signal: options.signal });
        pending.then((result) => settled.push(result)).catch(() => undefined);
        byOrigin.set(origin, pending);
      }
      return pending;
    },
    reserve(url, robots) {
      const delayMs = (robots.policy.crawlDelay ?? 0) * 1000;
      const now = Date.now();
      if (delayMs <= 0) return now;
      const origin = new URL(url).origin;
      const slot = Math.max(now, nextSlot.get(origin) ?? now);
      nextSlot.set(origin, slot + delayMs);
      return slot;
    },
    results: () => [...settled],
  };
}
