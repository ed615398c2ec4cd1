import type { ServerResponse } from 'node:http';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';

/** One result as SearXNG's JSON API lists it (the fields it always sends). */
export interface FakeSearxngResult {
  url: string;
  title: string;
  content: string;
}

/**
 * How the fake answers a search: results (paged 10 at a time like SearXNG), an HTTP status
 * (403 is what SearXNG answers when `json` is not in `search.formats`), a body that is not
 * its JSON, engines that all failed, or no answer at all.
 */
export type FakeSearxngMode =
  | { results: FakeSearxngResult[]; unresponsive?: [string, string][] }
  | { status: number; headers?: Record<string, string> }
  | { garbage: string }
  | { hang: true };

/**
 * A SearXNG instance on 127.0.0.1 serving `GET /search?q=…&format=json&pageno=N` with the
 * real JSON shape. `answer` decides per query; every request is recorded by the underlying
 * fixture server (`server.requests`), the query strings in `queries`.
 *
 * @example
 * const site = await startFixtureServer({ '/article': html('…') });
 * const searxng = await startFakeSearxng(() => ({ results: [{ url: site.url('/article'), title: 'A', content: '…' }] }));
 * // SEARXNG_URL = searxng.url
 */
export interface FakeSearxng {
  /** `http://127.0.0.1:<port>` (SEARXNG_URL). */
  readonly url: string;
  readonly server: FixtureServer;
  /** Query parameters of every search request, in order. */
  readonly queries: URLSearchParams[];
  answer: (query: string) => FakeSearxngMode;
  close(): Promise<void>;
}

export const SEARXNG_PAGE_SIZE = 10;

export async function startFakeSearxng(answer: (query: string) => FakeSearxngMode): Promise<FakeSearxng> {
  const queries: URLSearchParams[] = [];
  const fake: FakeSearxng = {
    url: '',
    server: null as unknown as FixtureServer,
    queries,
    answer,
    close: () => server.close(),
  };
  const server = await startFixtureServer({
    '/search': (_req, res, url) => {
      queries.push(url.searchParams);
      const q = url.searchParams.get('q') ?? '';
      // SearXNG's default output is HTML; JSON only when asked for.
      if (url.searchParams.get('format') !== 'json') return send(res, 200, '<html>results</html>', 'text/html');
      const mode = fake.answer(q);
      if ('hang' in mode) return;
      if ('garbage' in mode) return send(res, 200, mode.garbage, 'application/json');
      if ('status' in mode) return send(res, mode.status, '<h1>Forbidden</h1>', 'text/html', mode.headers);
      const page = Number(url.searchParams.get('pageno') ?? '1');
      const slice = mode.results.slice((page - 1) * SEARXNG_PAGE_SIZE, page * SEARXNG_PAGE_SIZE);
      send(res, 200, JSON.stringify(searxngBody(q, slice, mode.results.length, mode.unresponsive ?? [])));
    },
  });
  Object.assign(fake, { url: server.origin, server });
  return fake;
}

function searxngBody(query: string, results: FakeSearxngResult[], total: number, unresponsive: [string, string][]) {
  return {
    query,
    number_of_results: total,
    results: results.map((r, i) => ({
      ...r,
      engine: 'duckduckgo',
      engines: ['duckduckgo', 'brave'],
      parsed_url: urlParts(r.url),
      template: 'default.html',
      positions: [i + 1],
      score: 1 / (i + 1),
      category: 'general',
      publishedDate: null,
    })),
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: unresponsive,
  };
}

function urlParts(url: string): string[] {
  try {
    const u = new URL(url);
    return [u.protocol.slice(0, -1), u.host, u.pathname, '', u.search.slice(1), u.hash.slice(1)];
  } catch {
    return [];
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = 'application/json',
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, ...headers });
  res.end(body);
}
