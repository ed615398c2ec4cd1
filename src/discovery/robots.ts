import { setTimeout as sleep } from 'node:timers/promises';
import {
  canonicalRobotsPath,
  parseRobotsTxt,
  productToken,
  ruleMatches,
  type RobotsRule,
  type RobotsTxt,
} from './robots-rules.js';
import type { DiscoveryFetcher } from './types.js';

export { parseRobotsTxt, productToken, type RobotsTxt, type RobotsGroup, type RobotsRule } from './robots-rules.js';

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB; we parse exactly that much. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/**
 * What robots.txt lets one user agent do on one origin (scheme, host and port).
 *
 * @example
 * const policy = robotsPolicy(parseRobotsTxt(text), 'Gleaner');
 * if (policy.isAllowed('https://a.example/page?x=1')) enqueue(url);
 */
export interface RobotsPolicy {
  /** `rules`: a parsed file applies; `allow_all`: no usable file (4xx); `disallow_all`: unreachable (5xx, network). */
  readonly verdict: 'rules' | 'allow_all' | 'disallow_all';
  /** Takes an absolute URL of this origin or a path (`/a?b`). `/robots.txt` itself is always allowed. */
  isAllowed(urlOrPath: string): boolean;
  /** Seconds between requests asked of this agent, when the matching group(s) say so (largest wins). */
  readonly crawlDelay: number | undefined;
  readonly sitemaps: readonly string[];
  /** The group that applied: our token, `*`, or null (no group: everything allowed). */
  readonly matchedAgent: string | null;
}

function requestPath(urlOrPath: string): string | null {
  try {
    const url = new URL(urlOrPath, 'http://robots.invalid');
    return canonicalRobotsPath(url.pathname + url.search);
  } catch {
    return null;
  }
}

function decide(rules: readonly RobotsRule[], path: string): boolean {
  let best: RobotsRule | null = null;
  for (const rule of rules) {
    if (!ruleMatches(rule, path)) continue;
    // Most octets wins; on a tie the least restrictive (allow) wins (RFC 9309 §2.2.2).
    if (best === null || rule.pattern.length > best.pattern.length) best = rule;
    else if (rule.pattern.length === best.pattern.length && rule.allow) best = rule;
  }
  return best === null || best.allow;
}

function fixedPolicy(verdict: 'allow_all' | 'disallow_all', sitemaps: readonly string[] = []): RobotsPolicy {
  return {
    verdict,
    isAllowed: (urlOrPath) => verdict === 'allow_all' || requestPath(urlOrPath) === '/robots.txt',
    crawlDelay: undefined,
    sitemaps,
    matchedAgent: null,
  };
}

/** No robots.txt (4xx) or robots not followed: everything may be fetched. */
export const ALLOW_ALL: RobotsPolicy = fixedPolicy('allow_all');
/** robots.txt unreachable (5xx, 429, network): RFC 9309 §2.3.1.4 says assume complete disallow. */
export const DISALLOW_ALL: RobotsPolicy = fixedPolicy('disallow_all');

/**
 * The policy for `userAgent` (a product token such as `Gleaner`; a full UA string is reduced to
 * its first token). All groups naming the token are merged (RFC 9309 §2.2.1); without one, all
 * `*` groups are; without those, everything is allowed.
 */
export function robotsPolicy(robots: RobotsTxt, userAgent: string): RobotsPolicy {
  const token = productToken(userAgent);
  let groups = robots.groups.filter((g) => token !== '' && token !== '*' && g.agents.includes(token));
  let matchedAgent: string | null = token;
  if (groups.length === 0) {
    groups = robots.groups.filter((g) => g.agents.includes('*'));
    matchedAgent = groups.length === 0 ? null : '*';
  }
  const rules = groups.flatMap((g) => g.rules);
  const delays = groups.flatMap((g) => (g.crawlDelay === undefined ? [] : [g.crawlDelay]));
  return {
    verdict: 'rules',
    isAllowed(urlOrPath) {
      const path = requestPath(urlOrPath);
      if (path === null) return false;
      return path === '/robots.txt' || decide(rules, path);
    },
    crawlDelay: delays.length === 0 ? undefined : Math.max(...delays),
    sitemaps: robots.sitemaps,
    matchedAgent,
  };
}

/** `https://a.example:8443/x/y?z` → `https://a.example:8443/robots.txt`; null for non-http(s). */
export function robotsTxtUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return `${parsed.origin}/robots.txt`;
  } catch {
    return null;
  }
}

export interface FetchRobotsOptions {
  fetch: DiscoveryFetcher;
  /** Our product token, e.g. `Gleaner`. */
  userAgent: string;
  signal?: AbortSignal;
  /** Default 500 KiB; content past it is ignored. */
  maxBytes?: number;
  /** Tries for 5xx, 429 and network failures before concluding "unreachable" (default 2). */
  attempts?: number;
  /** Pause between tries (default 250 ms). */
  retryDelayMs?: number;
}

export interface RobotsFetchResult {
  /** The robots.txt URL asked for. */
  url: string;
  /** HTTP status of the last try, null when no answer came. */
  status: number | null;
  /** `parsed` (2xx), `unavailable` (4xx other than 429, or redirects not resolved), `unreachable`. */
  source: 'parsed' | 'unavailable' | 'unreachable';
  policy: RobotsPolicy;
  /** The file was longer than `maxBytes`; only the complete lines before the limit were read. */
  truncated: boolean;
  /** Why it was unreachable. */
  error?: string;
}

function parsedResult(
  url: string,
  status: number,
  finalUrl: string,
  body: Buffer,
  opts: FetchRobotsOptions,
): RobotsFetchResult {
  const maxBytes = opts.maxBytes ?? ROBOTS_MAX_BYTES;
  const truncated = body.length >= maxBytes;
  let text = body.subarray(0, maxBytes).toString('utf8');
  // A line cut by the limit could be a shortened rule (Disallow: /private → /pri): drop it.
  if (truncated) text = text.slice(0, Math.max(0, text.search(/[\r\n][^\r\n]*$/)));
  const policy = robotsPolicy(parseRobotsTxt(text, finalUrl), opts.userAgent);
  return { url, status, source: 'parsed', policy, truncated };
}

/**
 * Fetches and interprets the robots.txt of `url`'s origin (RFC 9309 §2.3.1):
 * 2xx → parsed rules; 3xx left unresolved and 4xx (except 429) → allow all;
 * 5xx, 429 and no answer (after `attempts` tries) → disallow all. Never throws for network
 * trouble; throws only when `signal` aborts.
 */
export async function fetchRobotsTxt(url: string, opts: FetchRobotsOptions): Promise<RobotsFetchResult> {
  const robotsUrl = robotsTxtUrl(url);
  if (robotsUrl === null) throw new TypeError(`not an http(s) URL: ${url}`);
  const attempts = Math.max(1, opts.attempts ?? 2);
  let status: number | null = null;
  let error = '';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (attempt > 1) await sleep(opts.retryDelayMs ?? 250, undefined, { signal: opts.signal });
    try {
      const res = await opts.fetch(robotsUrl, { maxBytes: opts.maxBytes ?? ROBOTS_MAX_BYTES, signal: opts.signal });
      status = res.status;
      if (status >= 200 && status < 300) return parsedResult(robotsUrl, status, res.finalUrl, res.body, opts);
      if (status >= 300 && status < 500 && status !== 429) {
        return { url: robotsUrl, status, source: 'unavailable', policy: ALLOW_ALL, truncated: false };
      }
      error = `HTTP ${status}`;
    } catch (err) {
      opts.signal?.throwIfAborted();
      status = null;
      error = err instanceof Error ? err.message : String(err);
    }
  }
  return { url: robotsUrl, status, source: 'unreachable', policy: DISALLOW_ALL, truncated: false, error };
}
