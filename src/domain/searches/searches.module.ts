import { defineModule } from '../../module/app-module.js';
import { Migration0008PageSearch } from './migration-0008-page-search.js';
import { SearchService } from './search.service.js';
import { searchGraphQL } from './searches.graphql.js';
import { searchRoutes } from './searches.routes.js';
import { createStoredPagesSearch, STORED_PAGES_SEARCH } from './stored-pages.search.js';

/**
 * Search: the built-in provider over the stored pages (full text, registered here after the
 * configured ones, so SearXNG stays the default when it is set) and `POST /v1/searches`.
 */
export const searchesModule = defineModule({
  name: 'searches',
  migrations: [{ name: '0008-page-search', class: Migration0008PageSearch }],
  services: (ctx) => {
    if (!ctx.search.get(STORED_PAGES_SEARCH)) ctx.search.register(createStoredPagesSearch(ctx.orm));
    return { searches: new SearchService(ctx.search) };
  },
  routes: ({ searches }) => searchRoutes({ searches }),
  graphql: (kit, { searches }) => searchGraphQL(kit, searches),
});
