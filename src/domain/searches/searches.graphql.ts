import type { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import type { SearchResult } from '../../search/search-provider.js';
import { CreateSearchInput } from './search.schema.js';
import type { SearchService, SearchView } from './search.service.js';

/** `search(query, limit, provider)`: POST /v1/searches as a query. */
export function searchGraphQL(kit: GraphQLKit, searches: SearchService): void {
  const { builder } = kit;
  const SearchResultRef = builder.objectRef<SearchResult>('SearchResult').implement({
    fields: (t) => ({
      url: t.exposeString('url'),
      title: t.exposeString('title'),
      snippet: t.exposeString('snippet'),
    }),
  });
  const SearchRef = builder.objectRef<SearchView>('Search').implement({
    description: 'Results of one query to a search provider (not stored).',
    fields: (t) => ({
      id: t.exposeID('id'),
      query: t.exposeString('query'),
      provider: t.exposeString('provider'),
      results: t.expose('results', { type: [SearchResultRef] }),
    }),
  });
  builder.queryFields((t) => ({
    search: t.field({
      type: SearchRef,
      description: 'Search the web (SearXNG) or the team’s stored pages (`provider: "stored"`).',
      args: {
        query: t.arg.string({ required: true }),
        limit: t.arg.int(),
        provider: t.arg.string(),
        includeDomains: t.arg.stringList(),
        excludeDomains: t.arg.stringList(),
      },
      validate: kit.validate(kit.fromCamel(CreateSearchInput)),
      resolve: (_, args, ctx) => searches.create(ctx.actor(), kit.parsed<z.output<typeof CreateSearchInput>>(args)),
    }),
  }));
}
