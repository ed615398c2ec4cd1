import { z } from 'zod';
import type { MapPage } from './map.service.js';
import type { MapSummaryView } from './map.view.js';
import { epochSeconds } from '../shared/time.js';

/** The spec's "Map result", plus `object`, `created`, `url`, `total_urls_count` and `warning`. */
export const MapObject = z
  .looseObject({
    id: z.string().describe('map identifier'),
    object: z.literal('map'),
    created: z.number().int().describe('Epoch seconds.'),
    url: z.string().describe('The start URL, normalised.'),
    urls_count: z.number().int().describe('Number of URLs in this response.'),
    total_urls_count: z.number().int().describe('Number of URLs in the whole map (every response together).'),
    urls: z.array(z.string()),
    cursor: z
      .string()
      .nullable()
      .describe('Continues the list (POST /v1/maps with `cursor`, or GET /v1/maps/{id}?cursor=); null when done.'),
    credits_consumed: z.number().int().nullable().describe('Cost of the map; continuing it costs nothing more.'),
    cost_usd: z.number().nullable(),
    warning: z.string().optional().describe('Why the list may be incomplete (a sitemap cut or unreachable, a limit).'),
  })
  .meta({ id: 'Map' });

export function presentMap(page: MapPage): z.output<typeof MapObject> {
  const { map } = page;
  return {
    id: map.id,
    object: 'map',
    created: epochSeconds(map.createdAt),
    url: map.url,
    urls_count: page.urls.length,
    total_urls_count: map.urlsCount,
    urls: page.urls,
    cursor: page.cursor,
    credits_consumed: 1,
    cost_usd: null,
    ...(map.warning ? { warning: map.warning } : {}),
  };
}

/** A map in a list: its request and size, not its URLs (GET /v1/maps/{id} serves them). */
export const MapSummaryObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('map'),
    created: z.number().int().describe('Epoch seconds.'),
    url: z.string().describe('The start URL, normalised.'),
    total_urls_count: z.number().int().describe('Number of URLs in the whole map.'),
    search_query: z.string().nullable(),
    top_n: z.number().int().nullable(),
    include_subdomain: z.boolean(),
    include_urls: z.array(z.string()),
    exclude_urls: z.array(z.string()),
    warning: z.string().optional().describe('Why the list may be incomplete (a sitemap cut or unreachable, a limit).'),
  })
  .meta({ id: 'MapSummary' });

export function presentMapSummary(map: MapSummaryView): z.output<typeof MapSummaryObject> {
  return {
    id: map.id,
    object: 'map',
    created: map.created,
    url: map.url,
    total_urls_count: map.totalUrlsCount,
    search_query: map.searchQuery,
    top_n: map.topN,
    include_subdomain: map.includeSubdomain,
    include_urls: map.includeUrls,
    exclude_urls: map.excludeUrls,
    ...(map.warning ? { warning: map.warning } : {}),
  };
}
