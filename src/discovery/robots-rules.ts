import { normalizeUrl } from '../url/normalize.js';

/**
 * robots.txt parsing and matching per RFC 9309, with the leniencies of Google's reference
 * parser that real files rely on (key typos, missing colon, BOM, any line ending).
 * Written here rather than taken from `robots-parser` because that package does not decode
 * percent-escapes of unreserved characters before comparing (RFC 9309 §2.2.2), does not
 * encode `"<>{}` like the URL parser does, and knows nothing of status codes or size limits.
 */

/** One allow/disallow line, compiled for matching. */
export interface RobotsRule {
  allow: boolean;
  /** The pattern in canonical encoding, as used for precedence (longest wins). */
  pattern: string;
  /** `pattern` without a trailing `$`, split on `*`. */
  readonly pieces: readonly string[];
  /** The pattern ended with `$`: the path must end where the pattern ends. */
  readonly anchored: boolean;
}

/** A group: the user-agent product tokens it names (lower case, `*` for all) and its members. */
export interface RobotsGroup {
  agents: string[];
  rules: RobotsRule[];
  /** Seconds, when a valid `Crawl-delay` line is in the group. */
  crawlDelay?: number;
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  /** Absolute http(s) URLs of `Sitemap:` lines (which belong to no group). */
  sitemaps: string[];
}

type Key = 'user-agent' | 'allow' | 'disallow' | 'crawl-delay' | 'sitemap';

/** Spellings seen in the wild and accepted by major crawlers. */
const KEYS: Record<string, Key> = {
  'user-agent': 'user-agent',
  useragent: 'user-agent',
  'user agent': 'user-agent',
  allow: 'allow',
  disallow: 'disallow',
  dissallow: 'disallow',
  dissalow: 'disallow',
  disalow: 'disallow',
  diasllow: 'disallow',
  disallaw: 'disallow',
  'crawl-delay': 'crawl-delay',
  crawldelay: 'crawl-delay',
  sitemap: 'sitemap',
  'site-map': 'sitemap',
};

/**
 * The one encoding both patterns and request paths are compared in: escapes of unreserved
 * characters decoded, other escapes upper-cased, and every character the WHATWG URL parser
 * would escape (in a path or a query) escaped, so a pattern written by hand compares equal
 * to the path of a parsed URL.
 */
export function canonicalRobotsPath(text: string): string {
  return text.replace(/%([0-9a-fA-F]{2})|[^\x21-\x7e]|["#<>`{}']/gu, (match: string, hex: string | undefined) => {
    if (hex !== undefined) {
      const char = String.fromCharCode(parseInt(hex, 16));
      return /[A-Za-z0-9\-._~]/.test(char) ? char : `%${hex.toUpperCase()}`;
    }
    return Array.from(Buffer.from(match, 'utf8'), (b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  });
}

export function compileRule(allow: boolean, rawPattern: string): RobotsRule {
  // RFC 9309 patterns start with "/"; a bare "fish" is read as "/fish" (as Google does), "*…" stays.
  const withSlash = rawPattern.startsWith('/') || rawPattern.startsWith('*') ? rawPattern : `/${rawPattern}`;
  const pattern = canonicalRobotsPath(withSlash);
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  return { allow, pattern, pieces: body.split('*'), anchored };
}

/** Whether the rule matches the (canonical) path; `*` is any run of characters, `$` the end. */
export function ruleMatches(rule: RobotsRule, path: string): boolean {
  const { pieces, anchored } = rule;
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let pos = first.length;
  const last = pieces.length - 1;
  // Leftmost matches of the middle pieces leave the most room for the rest: greedy is exact here.
  for (let k = 1; k < last; k++) {
    const piece = pieces[k] ?? '';
    const at = path.indexOf(piece, pos);
    if (at < 0) return false;
    pos = at + piece.length;
  }
  const tail = pieces[last] ?? '';
  if (!anchored) return path.indexOf(tail, pos) >= 0;
  return path.length - tail.length >= pos && path.endsWith(tail);
}

/** The product token of a user-agent value: leading letters, `_` and `-`, lower case. */
export function productToken(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('*')) return '*';
  return (/^[A-Za-z_-]+/.exec(trimmed)?.[0] ?? '').toLowerCase();
}

function splitLine(line: string): [string, string] | null {
  const hash = line.indexOf('#');
  const content = (hash < 0 ? line : line.slice(0, hash)).trim();
  if (content === '') return null;
  const colon = content.indexOf(':');
  if (colon >= 0) return [content.slice(0, colon).trim().toLowerCase(), content.slice(colon + 1).trim()];
  // "Disallow /private" (no colon) is accepted when the line is exactly key and value.
  const pair = /^(\S+)\s+(\S+)$/.exec(content);
  return pair === null ? null : [(pair[1] ?? '').toLowerCase(), pair[2] ?? ''];
}

function addSitemap(robots: RobotsTxt, value: string, baseUrl: string | undefined): void {
  if (value === '') return; // resolving "" would name the robots.txt file itself
  const url = normalizeUrl(value, baseUrl === undefined ? {} : { base: baseUrl });
  if (url !== null && !robots.sitemaps.includes(url)) robots.sitemaps.push(url);
}

/**
 * Parses robots.txt text into groups. Consecutive `User-agent` lines open one group; the
 * first member line after them closes the list. Lines before any `User-agent`, unknown keys
 * and empty `Allow:` values are ignored; an empty `Disallow:` allows everything (no rule).
 *
 * @example
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private\nSitemap: /sitemap.xml', 'https://a.example/robots.txt');
 */
export function parseRobotsTxt(text: string, baseUrl?: string): RobotsTxt {
  const robots: RobotsTxt = { groups: [], sitemaps: [] };
  let group: RobotsGroup | null = null;
  let collectingAgents = false;
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const pair = splitLine(line);
    const key = pair === null ? undefined : KEYS[pair[0]];
    if (pair === null || key === undefined) continue;
    const value = pair[1];
    if (key === 'sitemap') {
      addSitemap(robots, value, baseUrl);
    } else if (key === 'user-agent') {
      if (!collectingAgents || group === null) {
        group = { agents: [], rules: [] };
        robots.groups.push(group);
        collectingAgents = true;
      }
      const token = productToken(value);
      if (token !== '' && !group.agents.includes(token)) group.agents.push(token);
    } else if (group !== null) {
      collectingAgents = false;
      if (key === 'crawl-delay') {
        const seconds = Number(value);
        if (value !== '' && Number.isFinite(seconds) && seconds >= 0) group.crawlDelay = seconds;
      } else if (value !== '') {
        group.rules.push(compileRule(key === 'allow', value));
      }
    }
  }
  return robots;
}
