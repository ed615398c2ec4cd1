import { defineRoute } from '../../module/route.js';
import { presentSearch, SearchObject } from './search.presenter.js';
import { CreateSearchInput } from './search.schema.js';
import type { SearchService } from './search.service.js';

export function searchRoutes({ searches }: { searches: SearchService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/searches',
      operationId: 'createSearch',
      summary: 'Search the web or the stored pages',
      description:
        'Extension: one query to a search provider, the same ones answers use. `stored` searches the pages this deployment stored for the calling team (PostgreSQL full text); `searxng` (when SEARXNG_URL is set, then the default) searches the web through SearXNG.',
      tags: ['Searches'],
      body: CreateSearchInput,
      responses: {
        200: { description: 'The results, best first.', schema: SearchObject },
        400: { description: 'Invalid input, or an unknown search provider.' },
        502: { description: 'The search provider answered something unusable (`search_error`).' },
        503: { description: 'The search provider cannot be reached (`search_unavailable`).' },
        504: { description: 'The search took too long (`request_timeout`).' },
      },
      handler: async ({ actor, body, signal }) => presentSearch(await searches.create(actor, body, signal)),
    }),
  ];
}
