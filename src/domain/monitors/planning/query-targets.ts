import { parse as parseHost } from 'tldts';
import { normalizeUrl } from '../../../url/normalize.js';

/**
 * What a monitor's query names: absolute URLs (`https://x.y/z`), bare domains with or without a
 * path (`example.com`, `www.acme.io/blog`), and e-mail addresses (notification targets, never
 * tracked). Bare names count as domains only under a public suffix (`acme.io`, `foo.github.io`),
 * so `Node.js` or `index.html` are words. Suffixes that are also file extensions (`.py`, `.md`,
 * `.zip`, …) count only with `www.`, a path, or after a word that names a place ("on docs.rs",
 * "at bun.sh"), so "changes to setup.py" names no site.
 */

export interface TextSpan {
  start: number;
  end: number;
  /** The text as written. */
  text: string;
}

export interface QueryTarget extends TextSpan {
  kind: 'url' | 'domain';
  /** The normalised absolute URL to track. */
  url: string;
  /** The host named (lower case), for explanations and search hints. */
  host: string;
  /** True when the URL is a site's front page (path `/`, no query): the query may be about more than it. */
  root: boolean;
}

export interface QueryTargets {
  targets: QueryTarget[];
  emails: TextSpan[];
}

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/giu;
const EMAIL_PATTERN = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
const DOMAIN_PATTERN =
  /(?<![\p{L}\p{N}@./_-])((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+\p{L}[\p{L}\p{N}-]{1,62})(:\d{2,5})?(\/[^\s<>"'`]*)?/gu;
const FILE_LIKE_SUFFIXES = new Set(['zip', 'mov', 'py', 'md', 'pl', 'pm', 'sh', 'rs', 'ps', 'so', 'cc', 'tar', 'gz']);
const PLACE_WORDS = /(?:^|\s)(?:site|domain|website|page|at|on|from|of|via)\s+$/i;
const TRAILING_PUNCTUATION = /[.,;:!?'"’”»)\]}]$/u;

export function findQueryTargets(query: string): QueryTargets {
  const taken: TextSpan[] = [];
  const overlaps = (start: number, end: number): boolean => taken.some((span) => start < span.end && end > span.start);
  const targets: QueryTarget[] = [];
  for (const match of query.matchAll(URL_PATTERN)) {
    const text = trimUrl(match[0]);
    const target = toTarget('url', text, match.index, text);
    taken.push({ start: match.index, end: match.index + text.length, text });
    if (target) targets.push(target);
  }
  const emails: TextSpan[] = [];
  for (const match of query.matchAll(EMAIL_PATTERN)) {
    if (overlaps(match.index, match.index + match[0].length)) continue;
    const span = { start: match.index, end: match.index + match[0].length, text: match[0] };
    emails.push(span);
    taken.push(span);
  }
  for (const match of query.matchAll(DOMAIN_PATTERN)) {
    const text = trimUrl(match[0]);
    const start = match.index;
    if (overlaps(start, start + text.length)) continue;
    const [, host = '', port = '', path = ''] = /^([^:/]+)(:\d+)?(\/.*)?$/u.exec(text) ?? [];
    if (!isDomainName(host, path !== '', query.slice(0, start))) continue;
    const target = toTarget('domain', text, start, `https://${host}${port}${path || '/'}`);
    if (target) targets.push(target);
  }
  targets.sort((a, b) => a.start - b.start);
  return { targets, emails };
}

/** Drops sentence punctuation after a URL; a `)` stays when the URL opened one (`/wiki/A_(b)`). */
function trimUrl(text: string): string {
  let out = text;
  while (TRAILING_PUNCTUATION.test(out)) {
    if (out.endsWith(')') && count(out, '(') >= count(out, ')')) break;
    out = out.slice(0, -1);
  }
  return out;
}

function count(text: string, ch: string): number {
  return text.split(ch).length - 1;
}

function isDomainName(host: string, hasPath: boolean, before: string): boolean {
  if (host === host.toUpperCase() && /\p{Lu}/u.test(host)) return false; // "ASP.NET", "README.MD": words in capitals
  const parsed = parseHost(host.toLowerCase(), { allowPrivateDomains: true });
  if (!parsed.domain || (parsed.isIcann !== true && parsed.isPrivate !== true)) return false;
  const suffix = parsed.publicSuffix ?? '';
  if (!FILE_LIKE_SUFFIXES.has(suffix)) return true;
  return hasPath || /^www\./i.test(host) || PLACE_WORDS.test(before);
}

function toTarget(kind: QueryTarget['kind'], text: string, start: number, url: string): QueryTarget | null {
  const normalized = normalizeUrl(url);
  if (normalized === null) return null;
  const parsed = new URL(normalized);
  return {
    kind,
    text,
    start,
    end: start + text.length,
    url: normalized,
    host: parsed.hostname,
    root: parsed.pathname === '/' && parsed.search === '',
  };
}
