import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import { epochSeconds } from '../shared/time.js';
import { CreateMapInput, GetMapQuery, MapIdParams } from './map.schema.js';
import type { MapPage, MapService } from './map.service.js';

/** `map(id, cursor)`: the cursor is checked by the same schema as GET /v1/maps/{id}?cursor=. */
const MapArgs = z.object({ id: MapIdParams.shape.map_id, cursor: GetMapQuery.shape.cursor });

/** Maps over GraphQL: the same service and zod schemas as REST. */
export function mapGraphQL(kit: GraphQLKit, maps: MapService): void {
  const { builder } = kit;

  // Not `Map`: code generators would shadow the JavaScript Map type with it.
  const SiteMapRef = builder.objectRef<MapPage>('SiteMap').implement({
    description: 'The URLs of a site (POST /v1/maps); large maps come in parts continued by `cursor`.',
    fields: (t) => ({
      id: t.id({ resolve: (m) => m.map.id }),
      created: t.int({ description: 'Epoch seconds.', resolve: (m) => epochSeconds(m.map.createdAt) }),
      url: t.string({ description: 'The start URL, normalised.', resolve: (m) => m.map.url }),
      urlsCount: t.int({ description: 'URLs in this part.', resolve: (m) => m.urls.length }),
      totalUrlsCount: t.int({ description: 'URLs in the whole map.', resolve: (m) => m.map.urlsCount }),
      urls: t.exposeStringList('urls'),
      cursor: t.exposeString('cursor', { nullable: true, description: 'Continues the list; null when done.' }),
      creditsConsumed: t.int({ nullable: true, resolve: () => 1 }),
      costUsd: t.float({ nullable: true, resolve: () => null }),
      warning: t.string({ nullable: true, resolve: (m) => m.map.warning ?? null }),
    }),
  });

  const CreateMap = kit.input(CreateMapInput, 'CreateMapInput');

  builder.queryFields((t) => ({
    map: t.field({
      type: SiteMapRef,
      description: 'A stored map: its first part, or the part `cursor` names.',
      args: { id: t.arg.id({ required: true }), cursor: t.arg.string() },
      validate: kit.validate(kit.fromCamel(MapArgs)),
      resolve: (_, args, ctx) => {
        const { id, cursor } = kit.parsed<{ id: string; cursor?: string }>(args);
        return maps.get(ctx.actor(), id, cursor);
      },
    }),
  }));

  builder.mutationFields((t) => ({
    createMap: t.field({
      type: SiteMapRef,
      description: 'Map a website (the same as POST /v1/maps).',
      args: { input: t.arg({ type: CreateMap, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateMapInput) })),
      resolve: (_, args, ctx) =>
        maps.create(ctx.actor(), kit.parsed<{ input: z.output<typeof CreateMapInput> }>(args).input),
    }),
  }));
}
