import type { SearchResult } from '../../../src/search/search-provider.js';

/** The parts of SearXNG's JSON answer (`/search?format=json`) used here. */
export interface SearxngAnswer {
  results: unknown[];
  /** `[engine, reason]` pairs of engines that failed this search. */
  unresponsive: string[];
}

const SNIPPET_CHARS = 500;

/** Reads SearXNG's JSON; null when it is not that shape. */
export function readSearxngAnswer(body: unknown): SearxngAnswer | null {
  if (body === null || typeof body !== 'object') return null;
  const { results, unresponsive_engines: unresponsive } = body as Record<string, unknown>;
  if (!Array.isArray(results)) return null;
  const failed = Array.isArray(unresponsive)
    ? unresponsive.map((e) => (Array.isArray(e) ? e.filter((p) => typeof p === 'string').join(': ') : String(e)))
    : [];
  return { results, unresponsive: failed };
}

/**
 * One SearXNG result as a SearchResult, or null when it has no usable http(s) URL. `seen`
 * holds URLs (without fragment) already returned: SearXNG merges engines, pages can overlap.
 */
export function toSearchResult(raw: unknown, seen: Set<string>): SearchResult | null {
  if (raw === null || typeof raw !== 'object') return null;
  const { url, title, content } = raw as Record<string, unknown>;
  if (typeof url !== 'string') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  parsed.hash = '';
  if (seen.has(parsed.href)) return null;
  seen.add(parsed.href);
  return {
    url,
    title: typeof title === 'string' && title.trim() ? collapse(title) : url,
    snippet: typeof content === 'string' ? collapse(content).slice(0, SNIPPET_CHARS) : '',
  };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
