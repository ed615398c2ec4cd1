import { z } from 'zod';
import { CreateMapInput, GetMapQuery, MapIdParams } from '../../src/domain/maps/map.schema.js';
import { presentMap } from '../../src/domain/maps/map.presenter.js';
import { builder } from '../builder.js';
import { fromCamel, validateWith } from '../camel-input.js';

type Presented = ReturnType<typeof presentMap>;

/** `map(id, cursor)`: the cursor is checked by the same schema as GET /v1/maps/{id}?cursor=. */
const MapArgs = z.object({ id: MapIdParams.shape.map_id, cursor: GetMapQuery.shape.cursor });

const CreateMapGqlInput = builder.inputType('CreateMapInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'Website to list URLs for.' }),
    searchQuery: t.string({ description: 'Sorts URLs by relevance (URL words, anchor text, titles).' }),
    topN: t.int({ description: 'Keep the n most relevant URLs; requires searchQuery.' }),
    includeSubdomain: t.boolean({ description: 'List pages on subdomains too (default true).' }),
    includeUrls: t.stringList({ description: 'URL globs: `/…` matches the path, `**` crosses segments.' }),
    excludeUrls: t.stringList({ description: 'URL globs; exclusion wins.' }),
    cursor: t.string({ description: 'From a previous response: continues that map.' }),
  }),
});

// Not `Map`: code generators would shadow the JavaScript Map type with it.
const SiteMapRef = builder.objectRef<Presented>('SiteMap').implement({
  description: 'The URLs of a site (POST /v1/maps); large maps come in parts continued by `cursor`.',
  fields: (t) => ({
    id: t.id({ resolve: (m) => m.id }),
    created: t.int({ description: 'Epoch seconds.', resolve: (m) => m.created }),
    url: t.string({ description: 'The start URL, normalised.', resolve: (m) => m.url }),
    urlsCount: t.int({ description: 'URLs in this part.', resolve: (m) => m.urls_count }),
    totalUrlsCount: t.int({ description: 'URLs in the whole map.', resolve: (m) => m.total_urls_count }),
    urls: t.stringList({ resolve: (m) => m.urls }),
    cursor: t.string({ nullable: true, description: 'Continues the list; null when done.', resolve: (m) => m.cursor }),
    creditsConsumed: t.int({ nullable: true, resolve: (m) => m.credits_consumed }),
    costUsd: t.float({ nullable: true, resolve: (m) => m.cost_usd }),
    warning: t.string({ nullable: true, resolve: (m) => m.warning ?? null }),
  }),
});

builder.queryFields((t) => ({
  map: t.field({
    type: SiteMapRef,
    description: 'A stored map: its first part, or the part `cursor` names.',
    args: { id: t.arg.id({ required: true }), cursor: t.arg.string() },
    validate: validateWith(fromCamel(MapArgs)),
    resolve: async (_, args, ctx) => {
      const { id, cursor } = args as unknown as { id: string; cursor?: string };
      return presentMap(await ctx.services.maps.get(ctx.actor(), id, cursor));
    },
  }),
}));

builder.mutationFields((t) => ({
  createMap: t.field({
    type: SiteMapRef,
    description: 'Map a website (the same as POST /v1/maps).',
    args: { input: t.arg({ type: CreateMapGqlInput, required: true }) },
    validate: validateWith(z.object({ input: fromCamel(CreateMapInput) })),
    resolve: async (_, args, ctx) => {
      const { input } = args as unknown as { input: z.output<typeof CreateMapInput> };
      return presentMap(await ctx.services.maps.create(ctx.actor(), input));
    },
  }),
}));
