import { defineModule } from '../../module/app-module.js';
import { UrlMapSchema } from './map.entity.js';
import { createMapService } from './map.service.js';
import { MAP_SETTINGS, mapSettings } from './map.settings.js';
import { mapGraphQL } from './maps.graphql.js';
import { mapRoutes } from './maps.routes.js';

/** `POST /v1/maps`: a site's URLs from its sitemaps and links, stored and served in pages. */
export const mapsModule = defineModule({
  name: 'maps',
  entities: [UrlMapSchema],
  settings: MAP_SETTINGS,
  configKey: 'map',
  config: mapSettings,
  services: (ctx) => ({
    maps: createMapService({
      orm: ctx.orm,
      blobs: ctx.blobs,
      engines: ctx.engines,
      guard: ctx.guard,
      secret: ctx.secret,
      limits: ctx.settings,
      fetchTimeoutMs: ctx.config.scrape.timeoutMs,
    }),
  }),
  routes: ({ maps }) => mapRoutes({ maps }),
  graphql: (kit, { maps }) => mapGraphQL(kit, maps),
});
