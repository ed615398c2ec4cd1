import { z } from 'zod';
import { CreateMapInput, GetMapQuery, ListMapsQuery, MapIdParams } from './map.schema.js';
import { MapObject, MapSummaryObject, presentMap, presentMapSummary } from './map.presenter.js';
import { defineRoute } from '../../module/route.js';
import type { MapService } from './map.service.js';

const tags = ['Maps'];

export function mapRoutes({ maps }: { maps: MapService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/maps',
      operationId: 'createMap',
      summary: 'Map a website',
      description:
        'Lists the URLs of a site: every sitemap source (robots.txt `Sitemap:` lines, /sitemap.xml, nested indexes, gzip, plain text) plus link discovery from the start page outward, within a time and page budget. Responses are at most 10 MB; `cursor` continues the stored result without discovering again.',
      tags,
      body: CreateMapInput,
      responses: {
        200: { description: 'The map (or the next part of it, with `cursor`).', schema: MapObject },
        400: { description: 'Invalid input, `top_n` without `search_query`, or a cursor this service did not issue.' },
        403: { description: 'The site is refused by the outbound policy (`blacklisted_domain`).' },
        404: { description: 'The cursor names a map that does not exist for this team (`map_not_found`).' },
        502: { description: 'The site could not be reached at all (`upstream_error`).' },
      },
      handler: async ({ actor, body, signal }) => presentMap(await maps.create(actor, body, signal)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/maps',
      operationId: 'listMaps',
      summary: 'List maps',
      description: 'Extension: the team’s maps, newest first, without their URLs (GET /v1/maps/{id} for those).',
      tags,
      query: ListMapsQuery,
      responses: {
        200: {
          description: 'A page of maps.',
          schema: z.object({
            object: z.literal('list'),
            data: z.array(MapSummaryObject),
            cursor: z.number().int().optional().describe('Present when a further page exists.'),
          }),
        },
      },
      handler: async ({ actor, query }) => {
        const { maps: list, nextCursor } = await maps.list(actor, query);
        return {
          object: 'list',
          data: list.map(presentMapSummary),
          ...(nextCursor !== null ? { cursor: nextCursor } : {}),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/maps/{map_id}',
      operationId: 'getMap',
      summary: 'Get a map',
      description: 'The stored result: its first part, or the part a `cursor` names.',
      tags,
      params: MapIdParams,
      query: GetMapQuery,
      responses: {
        200: { description: 'The map.', schema: MapObject },
        400: { description: 'A cursor this service did not issue, or one of another map.' },
        404: { description: 'No such map (`map_not_found`).' },
      },
      handler: async ({ actor, params, query }) => presentMap(await maps.get(actor, params.map_id, query.cursor)),
    }),
  ];
}
