import { createDeadline, type Deadline } from '../../../src/engine/deadline.js';
import { findInCauses } from '../../../src/engine/network-errors.js';
import { AppError, errors } from '../../../src/errors.js';
import { searchError, searchUnavailable } from '../../../src/search/search-errors.js';
import type { SearchProvider, SearchResult } from '../../../src/search/search-provider.js';
import { readSearxngAnswer, toSearchResult, type SearxngAnswer } from './searxng-results.js';

export interface SearxngOptions {
  /** Registry id (default `searxng`). */
  id?: string;
  /** The instance's base URL (its `/search` is below it). */
  baseUrl: string;
  /** Longest wait for one whole search, every page of it. */
  timeoutMs: number;
  /** Every request goes through this fetch: the outbound guard's (`createGuardedFetch`). */
  fetch: typeof globalThis.fetch;
  /** Releases what `fetch` holds. */
  close?: () => Promise<void>;
}

/** Result pages read at most for one search. */
const MAX_PAGES = 5;
/** A page with fewer results than this is the last: SearXNG fills pages with about 10 (more with several engines). */
const FULL_PAGE = 10;

/**
 * Web search through a self-hosted SearXNG metasearch instance and its JSON API
 * (`GET /search?q=…&format=json&pageno=N`; `json` must be in its `search.formats`). Reads
 * pages until `limit` distinct results are found, a page is short (under 10 results) or adds
 * nothing new, or 5 pages were read: every page makes SearXNG query its engines again.
 *
 * @example
 * const searxng = createSearxngProvider({ baseUrl: 'http://searxng:8080', timeoutMs: 10_000, fetch: guarded.fetch });
 * await searxng.search('postgres full text search', { teamId, limit: 5, signal });
 */
export function createSearxngProvider(options: SearxngOptions): SearchProvider {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/search`;
  return {
    id: options.id ?? 'searxng',
    description: 'Web search through SearXNG',
    async search(query, { limit, signal }) {
      const q = query.trim();
      if (q === '') throw errors.validation('search query must not be empty');
      const wanted = Math.max(1, Math.floor(limit));
      const deadline = createDeadline(options.timeoutMs, signal);
      const seen = new Set<string>();
      const found: SearchResult[] = [];
      try {
        for (let page = 1; page <= MAX_PAGES && found.length < wanted; page++) {
          const answer = await fetchPage(options.fetch, endpoint, q, page, deadline);
          if (page === 1 && answer.results.length === 0 && answer.unresponsive.length > 0) {
            throw searchUnavailable(`SearXNG's engines did not answer: ${answer.unresponsive.join(', ')}`);
          }
          const fresh = answer.results.map((r) => toSearchResult(r, seen)).filter((r) => r !== null);
          found.push(...fresh);
          if (fresh.length === 0 || answer.results.length < FULL_PAGE) break;
        }
        return found.slice(0, wanted);
      } finally {
        deadline.dispose();
      }
    },
    close: async () => options.close?.(),
  };
}

async function fetchPage(
  fetch: typeof globalThis.fetch,
  endpoint: string,
  query: string,
  page: number,
  deadline: Deadline,
): Promise<SearxngAnswer> {
  const url = `${endpoint}?${new URLSearchParams({ q: query, format: 'json', pageno: String(page) })}`;
  let response: Response;
  let body: string;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal: deadline.signal });
    body = await response.text();
  } catch (err) {
    const explained = deadline.explain(err, 'SearXNG did not answer');
    throw explained !== err ? explained : unreachable(err);
  }
  if (!response.ok) throw statusError(response);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = null;
  }
  const answer = readSearxngAnswer(parsed);
  if (!answer) throw searchError("SearXNG's answer is not its JSON search format");
  return answer;
}

function statusError(response: Response): AppError {
  const status = response.status;
  if (status === 403) {
    return searchError('SearXNG refused JSON output (403): add `json` to `search.formats` in its settings.yml');
  }
  if (status === 429) {
    return searchUnavailable(
      "SearXNG is rate limiting this service (429): its limiter (botdetection) may need to exempt this service's address",
      { retryAfter: response.headers.get('retry-after') },
    );
  }
  if (status >= 500) return searchUnavailable(`SearXNG failed (${status})`);
  return searchError(`SearXNG answered ${status}`);
}

function unreachable(err: unknown): AppError {
  const refusal = findInCauses(err, (e): e is AppError => e instanceof AppError && e.kind === 'forbidden');
  if (refusal)
    return searchError(`the connection to SearXNG was refused by the outbound policy: ${refusal.detail}`, err);
  const coded = findInCauses(
    err,
    (e): e is Error & { code: string } => typeof (e as { code?: unknown }).code === 'string',
  );
  const why = coded?.code ?? (err instanceof Error ? err.message : String(err));
  return searchUnavailable(`SearXNG could not be reached (${why})`, { cause: err });
}
