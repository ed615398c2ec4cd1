import { z } from 'zod';
import { epochSeconds } from '../shared/time.js';
import type { SearchView } from './search.service.js';

const SearchResultObject = z.object({
  url: z.string(),
  title: z.string(),
  snippet: z.string().describe('A short extract about the query (may be empty).'),
});

/**
 * decisions.md ("Additions"): `{id, object: "search", query, results: [{url, title, snippet}]}`;
 * also `created`, `provider`, and `result.links` (`{url, title, description}`), the shape the
 * public service's SDKs read.
 */
export const SearchObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('search'),
    created: z.number().int().describe('Epoch seconds.'),
    query: z.string(),
    provider: z.string().describe('The search provider that answered.'),
    results: z.array(SearchResultObject),
    result: z.object({
      links: z.array(z.object({ url: z.string(), title: z.string(), description: z.string() })),
    }),
  })
  .meta({ id: 'Search' });

export function presentSearch(view: SearchView): z.output<typeof SearchObject> {
  return {
    id: view.id,
    object: 'search',
    created: epochSeconds(view.createdAt),
    query: view.query,
    provider: view.provider,
    results: view.results.map(({ url, title, snippet }) => ({ url, title, snippet })),
    result: { links: view.results.map((r) => ({ url: r.url, title: r.title, description: r.snippet })) },
  };
}
