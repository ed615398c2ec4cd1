import { compileUrlFilter, type UrlFilter } from '../../../url/glob.js';
import { siteHost } from '../../../url/normalize.js';
import { fieldError } from '../field-error.js';

/**
 * A monitor's `source_policy`: which URLs it may track, whether named in the query or found by
 * search. `include_urls`/`exclude_urls` are URL globs with the semantics crawls and maps use
 * (src/url/glob.ts: `/…` matches the path, anything else the whole URL; `*` stays within a
 * segment, `**` crosses them). `include_domains`/`exclude_domains` are host names: `example.com`
 * covers the name and every subdomain (`www.`, `docs.`), `*.example.com` only the subdomains,
 * `www.example.com` the site with or without `www.`.
 * A URL is refused when an exclude list matches it (exclusion wins); otherwise, when any include
 * list is non-empty, it must match an include glob OR an include domain.
 */

export interface SourcePolicy {
  include_urls: string[];
  exclude_urls: string[];
  include_domains: string[];
  exclude_domains: string[];
}

export type SourceReason =
  | 'excluded_domain'
  | 'excluded_url'
  | 'included_domain'
  | 'included_url'
  | 'not_included'
  | 'no_include_rules'
  | 'invalid_url';

export interface SourceDecision {
  keep: boolean;
  reason: SourceReason;
  /** The deciding domain or pattern, when one decided. */
  rule?: string;
  /** The decision in words, for the planner's explanation and previews. */
  explanation: string;
}

export interface CompiledSourcePolicy {
  /** The policy as normalised (domains lower-cased, schemes and trailing slashes dropped). */
  readonly policy: SourcePolicy;
  readonly acceptsAll: boolean;
  explain(url: string): SourceDecision;
  test(url: string): boolean;
}

const LISTS = ['include_urls', 'exclude_urls', 'include_domains', 'exclude_domains'] as const;
const MAX_ENTRIES = 100;

/**
 * Validates and compiles a source policy; throws a 400 `validation_error` naming
 * `source_policy.<list>[i]` for a malformed entry.
 *
 * @example
 * const policy = compileSourcePolicy({ exclude_domains: ['ads.example.com'], include_urls: ['/pricing/**'] });
 * policy.explain('https://ads.example.com/pricing').reason; // 'excluded_domain'
 */
export function compileSourcePolicy(input: unknown, field = 'source_policy'): CompiledSourcePolicy {
  const raw = readLists(input, field);
  const policy: SourcePolicy = {
    include_urls: raw.include_urls.map((p) => p.trim()),
    exclude_urls: raw.exclude_urls.map((p) => p.trim()),
    include_domains: raw.include_domains.map((d, i) => normaliseDomain(d, `${field}.include_domains[${i}]`)),
    exclude_domains: raw.exclude_domains.map((d, i) => normaliseDomain(d, `${field}.exclude_domains[${i}]`)),
  };
  const includeUrls = compileUrlFilter({ include: policy.include_urls }, { include: `${field}.include_urls` });
  const excludeUrls = compileUrlFilter({ exclude: policy.exclude_urls }, { exclude: `${field}.exclude_urls` });
  const hasIncludes = policy.include_urls.length > 0 || policy.include_domains.length > 0;
  const explain = (url: string): SourceDecision => decide(url, policy, includeUrls, excludeUrls, hasIncludes);
  return {
    policy,
    acceptsAll: LISTS.every((list) => policy[list].length === 0),
    explain,
    test: (url) => explain(url).keep,
  };
}

function decide(
  url: string,
  policy: SourcePolicy,
  includeUrls: UrlFilter,
  excludeUrls: UrlFilter,
  hasIncludes: boolean,
): SourceDecision {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { keep: false, reason: 'invalid_url', explanation: `${url} is not an absolute URL` };
  }
  const host = parsed.hostname;
  const excludedDomain = policy.exclude_domains.find((domain) => domainMatches(host, domain));
  if (excludedDomain) {
    return { keep: false, reason: 'excluded_domain', rule: excludedDomain, explanation: `${url} is excluded by exclude_domains "${excludedDomain}"` };
  } // prettier-ignore
  const excludedUrl = excludeUrls.explain(parsed);
  if (!excludedUrl.keep) {
    return { keep: false, reason: 'excluded_url', rule: excludedUrl.pattern, explanation: `${url} is excluded by exclude_urls "${excludedUrl.pattern}"` };
  } // prettier-ignore
  if (!hasIncludes)
    return { keep: true, reason: 'no_include_rules', explanation: `${url} is allowed (no include rules)` };
  const includedDomain = policy.include_domains.find((domain) => domainMatches(host, domain));
  if (includedDomain) {
    return { keep: true, reason: 'included_domain', rule: includedDomain, explanation: `${url} is in include_domains "${includedDomain}"` };
  } // prettier-ignore
  const includedUrl = policy.include_urls.length > 0 ? includeUrls.explain(parsed) : null;
  if (includedUrl?.keep) {
    return { keep: true, reason: 'included_url', rule: includedUrl.pattern, explanation: `${url} matches include_urls "${includedUrl.pattern}"` };
  } // prettier-ignore
  return {
    keep: false,
    reason: 'not_included',
    explanation: `${url} matches none of the include_urls or include_domains`,
  };
}

/**
 * `example.com` matches itself and its subdomains, `*.example.com` only its subdomains; a
 * leading `www.` on either side does not tell two names apart (`www.example.com` is the site
 * `example.com`, but does not cover `docs.example.com`).
 */
export function domainMatches(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (domain.startsWith('*.')) return host.endsWith(domain.slice(1));
  return siteHost(host) === siteHost(domain) || host.endsWith(`.${domain}`);
}

function readLists(input: unknown, field: string): Record<(typeof LISTS)[number], string[]> {
  const empty = { include_urls: [], exclude_urls: [], include_domains: [], exclude_domains: [] };
  if (input === undefined || input === null) return empty;
  if (typeof input !== 'object' || Array.isArray(input)) throw fieldError(field, 'must be an object');
  const raw = input as Record<string, unknown>;
  const unknownKey = Object.keys(raw).find((key) => !(LISTS as readonly string[]).includes(key));
  if (unknownKey)
    throw fieldError(`${field}.${unknownKey}`, `is not a source policy list (known: ${LISTS.join(', ')})`);
  const lists: Record<string, string[]> = { ...empty };
  for (const list of LISTS) {
    const value = raw[list];
    if (value === undefined || value === null) continue;
    if (!Array.isArray(value)) throw fieldError(`${field}.${list}`, 'must be an array of strings');
    if (value.length > MAX_ENTRIES) throw fieldError(`${field}.${list}`, `has more than ${MAX_ENTRIES} entries`);
    value.forEach((item: unknown, i) => {
      if (typeof item !== 'string' || item.trim() === '')
        throw fieldError(`${field}.${list}[${i}]`, 'must be a non-empty string');
    });
    lists[list] = value as string[];
  }
  return lists as Record<(typeof LISTS)[number], string[]>;
}

/** `https://Example.com/` → `example.com`; `*.Example.com` → `*.example.com`; IDNs to punycode. */
export function normaliseDomain(raw: string, field: string): string {
  let text = raw
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  const wildcard = text.startsWith('*.') || text.startsWith('.');
  text = text.replace(/^\*?\./, '').replace(/\/$/, '');
  if (/[/?#@:\s*]/.test(text)) {
    throw fieldError(
      field,
      `${JSON.stringify(raw)} is not a domain name (paths and ports belong in include_urls / exclude_urls globs)`,
    );
  }
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    throw fieldError(field, `${JSON.stringify(raw)} is not a domain name`);
  }
  host = host.replace(/\.+$/, '');
  if (host === '' || !/^[a-z0-9.-]+$/.test(host))
    throw fieldError(field, `${JSON.stringify(raw)} is not a domain name`);
  return wildcard ? `*.${host}` : host;
}
