import type { RobotsFetchResult } from '../../discovery/robots.js';
import { ROBOTS_PRODUCT_TOKEN } from '../maps/map.service.js';
import type { CrawlStopReason } from './crawl.entity.js';
import type { UrlEnd } from './crawl-records.js';

/** Why robots.txt keeps a URL from being fetched, in words for failed_urls and warnings. */
export function robotsRefusal(robots: RobotsFetchResult): string {
  if (robots.source === 'unreachable') {
    const why =
      robots.status === null
        ? `could not be fetched (${robots.error ?? 'no answer'})`
        : `answered HTTP ${robots.status}`;
    return `${robots.url} ${why}: per RFC 9309 (section 2.3.1.4) the site is treated as fully disallowed`;
  }
  return `disallowed by ${robots.url} for ${ROBOTS_PRODUCT_TOKEN}`;
}

/**
 * How a crawl whose start URL robots.txt refuses ends: a robots.txt that answered 5xx or 429
 * means the whole site is disallowed (`robots_unreachable`); no answer at all means the site is
 * down (`start_failed`); rules that disallow the start URL, `robots_disallowed`.
 */
export function refusedStart(robots: RobotsFetchResult): { reason: CrawlStopReason; end: UrlEnd } {
  const message = robotsRefusal(robots);
  if (robots.source === 'unreachable' && robots.status === null) {
    return { reason: 'start_failed', end: { status: 'failed', code: 'upstream_error', message } };
  }
  const reason = robots.source === 'unreachable' ? 'robots_unreachable' : 'robots_disallowed';
  return { reason, end: { status: 'blocked', code: 'robots_disallowed', message } };
}
