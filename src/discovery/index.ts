/**
 * Discovery building blocks for maps and crawls: sitemaps (every source, nested, gzip, text,
 * feeds) and robots.txt (RFC 9309). Pure functions over an injected `DiscoveryFetcher`; no
 * database, no HTTP client of their own. URL normalisation and ranking live in `src/url/`.
 * See docs/discovery.md.
 */
export type {
  DiscoveredUrl,
  DiscoveryError,
  DiscoveryErrorCode,
  DiscoveryFetcher,
  DiscoveryResponse,
} from './types.js';
export {
  collectSitemapUrls,
  parseSitemapDocument,
  SITEMAP_DEFAULTS,
  type CollectSitemapOptions,
  type ParsedSitemap,
  type SitemapCollection,
} from './sitemap.js';
export {
  ALLOW_ALL,
  DISALLOW_ALL,
  fetchRobotsTxt,
  parseRobotsTxt,
  productToken,
  ROBOTS_MAX_BYTES,
  robotsPolicy,
  robotsTxtUrl,
  type FetchRobotsOptions,
  type RobotsFetchResult,
  type RobotsGroup,
  type RobotsPolicy,
  type RobotsRule,
  type RobotsTxt,
} from './robots.js';
