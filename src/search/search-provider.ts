export interface SearchResult {
  /** Absolute http(s) URL of the page found. */
  url: string;
  title: string;
  /** A short extract of the page about the query (may be empty). */
  snippet: string;
  /**
   * Set by providers over this deployment's stored pages: the page's `retrieve_id`, so its
   * stored content can be read instead of fetching the URL again.
   */
  retrieveId?: string;
}

export interface SearchOptions {
  /** The team searching: providers over stored data must only search that team's. */
  teamId: string;
  /** Results wanted at most (providers may return fewer). */
  limit: number;
  /** Aborting it rejects the search with the signal's reason. */
  signal: AbortSignal;
}

/**
 * A search-provider plugin: finds pages for a query (answers' sources, `POST /v1/searches`).
 * Providers live in `plugins/search/` (an external engine such as SearXNG) or query this
 * deployment's own stored pages; they register by id in a `SearchRegistry`. Results come best
 * first, without duplicate URLs, and only http(s) URLs.
 *
 * Errors: 503 `search_unavailable` when the provider cannot be reached or is failing (try
 * again later), 502 `search_error` when it answered something unusable, 504 `request_timeout`
 * when it was too slow, the signal's reason when the caller aborts.
 *
 * @example
 * export function createStoredPagesSearch(db: Database): SearchProvider {
 *   return {
 *     id: 'stored',
 *     description: 'Pages this deployment has stored (PostgreSQL full text)',
 *     search: (query, { teamId, limit, signal }) => db.searchPages(teamId, query, limit, signal),
 *   };
 * }
 */
export interface SearchProvider {
  readonly id: string;
  /** One line for operators and error messages, without secrets or internal addresses. */
  readonly description: string;
  search(query: string, options: SearchOptions): Promise<SearchResult[]>;
  /** Releases connections; the provider is not used afterwards. */
  close?(): Promise<void>;
}
