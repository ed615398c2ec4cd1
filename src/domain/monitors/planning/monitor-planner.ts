import { fieldError } from '../field-error.js';
import { findQueryTargets, type QueryTarget } from './query-targets.js';
import {
  type CompiledSourcePolicy,
  compileSourcePolicy,
  type SourcePolicy,
  type SourceReason,
} from './source-policy.js';
import { replaceSpans, topicWords, webQueryFrom } from './web-query.js';

/**
 * The deterministic planner (used when no model is configured): a monitor's query becomes what
 * it tracks, within its source policy, and says why.
 * - URLs and domains named in the query are tracked (`urls`), less those the policy refuses.
 * - When a named URL is a site's front page and the query says more than "watch it" ("news
 *   about acme.io on their blog"), the rest becomes a web search too (`both`), with the named
 *   hosts in the query and in `search_domains`, so the runtime can keep results on those sites.
 * - With nothing named, the query less scheduling, notification and request words is the web
 *   search (`web_query`).
 */

export interface TrackedSources {
  type: 'urls' | 'web_query' | 'both';
  urls: string[];
  /** The search query; null when only URLs are tracked. */
  web_query: string | null;
}

export interface RefusedSource {
  url: string;
  reason: SourceReason;
  explanation: string;
}

export interface MonitorPlan {
  tracked: TrackedSources;
  /** What the planner chose and why, in one or two sentences. */
  explanation: string;
  /** URLs named in the query that the source policy refused. */
  refused: RefusedSource[];
  /** Hosts the web search is about (type `both`); empty otherwise. */
  search_domains: string[];
  /** The source policy as normalised. */
  source_policy: SourcePolicy;
}

const MAX_QUERY_LENGTH = 4000;
const MAX_TRACKED_URLS = 20;
const MAX_WEB_QUERY_LENGTH = 400;

/**
 * @example
 * planMonitor('Tell me when the pricing page of example.com changes', { exclude_domains: [] });
 * // tracked: { type: 'both', urls: ['https://example.com/'], web_query: 'pricing example.com' }
 */
export function planMonitor(query: unknown, sourcePolicy?: unknown): MonitorPlan {
  if (typeof query !== 'string' || query.trim() === '') throw fieldError('query', 'must be a non-empty string');
  if (query.length > MAX_QUERY_LENGTH) throw fieldError('query', `is longer than ${MAX_QUERY_LENGTH} characters`);
  const policy = compileSourcePolicy(sourcePolicy);
  const { targets, emails } = findQueryTargets(query);
  const { kept, refused } = partition(targets, policy);
  const rest = webQueryFrom(replaceSpans(query, [...targets, ...emails]));
  const hasTopic = topicWords(rest).length > 0;
  const base = { refused, source_policy: policy.policy };
  const refusedNote = refused.length > 0 ? ` Left out: ${refused.map((r) => r.explanation).join('; ')}.` : '';
  if (kept.length === 0) {
    if (!hasTopic) throw nothingToTrack(targets.length > 0, refused);
    const webQuery = clip(rest);
    const why =
      targets.length > 0
        ? 'No URL named in the query is allowed by the source policy'
        : 'The query names no URL or domain';
    return {
      ...base,
      tracked: { type: 'web_query', urls: [], web_query: webQuery },
      explanation: `${why}: searching the web for "${webQuery}".${refusedNote}`,
      search_domains: [],
    };
  }
  const urls = kept.slice(0, MAX_TRACKED_URLS).map((target) => target.url);
  const capNote =
    kept.length > MAX_TRACKED_URLS
      ? ` ${kept.length - MAX_TRACKED_URLS} more left out: a monitor tracks at most ${MAX_TRACKED_URLS} URLs.`
      : '';
  const roots = kept.filter((target) => target.root && urls.includes(target.url));
  const named = `${urls.length === 1 ? 'the URL' : `${urls.length} URLs`} named in the query (${urls.join(', ')})`;
  if (roots.length > 0 && hasTopic) {
    const hosts = [...new Set(roots.map((target) => target.host))];
    // The front pages' hosts stay where the query names them ("news about acme.io on their blog").
    const inline = targets.map((target) => ({ ...target, replacement: roots.includes(target) ? target.host : '' }));
    const webQuery = clip(webQueryFrom(replaceSpans(query, [...inline, ...emails])));
    return {
      ...base,
      tracked: { type: 'both', urls, web_query: webQuery },
      explanation: `Tracking ${named}, and searching the web for "${webQuery}" because the query asks about more than a site's front page.${capNote}${refusedNote}`,
      search_domains: hosts,
    };
  }
  return {
    ...base,
    tracked: { type: 'urls', urls, web_query: null },
    explanation: `Tracking ${named}.${capNote}${refusedNote}`,
    search_domains: [],
  };
}

/** The targets the policy keeps and those it refuses (with why), each URL once. */
function partition(
  targets: readonly QueryTarget[],
  policy: CompiledSourcePolicy,
): { kept: QueryTarget[]; refused: RefusedSource[] } {
  const kept: QueryTarget[] = [];
  const refused: RefusedSource[] = [];
  for (const target of targets) {
    if (kept.some((k) => k.url === target.url) || refused.some((r) => r.url === target.url)) continue;
    const decision = policy.explain(target.url);
    if (decision.keep) kept.push(target);
    else refused.push({ url: target.url, reason: decision.reason, explanation: decision.explanation });
  }
  return { kept, refused };
}

function clip(text: string): string {
  if (text.length <= MAX_WEB_QUERY_LENGTH) return text;
  const cut = text.slice(0, MAX_WEB_QUERY_LENGTH);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : MAX_WEB_QUERY_LENGTH);
}

function nothingToTrack(namedSomething: boolean, refused: readonly RefusedSource[]) {
  if (namedSomething) {
    return fieldError(
      'query',
      `every URL or domain it names is outside source_policy (${refused.map((r) => r.explanation).join('; ')}), and it describes nothing else to search for`,
    );
  }
  return fieldError('query', 'says nothing to monitor: name a URL or domain, or describe what to watch for');
}
