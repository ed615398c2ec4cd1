import type { Services } from '../../container.js';
import type { AnyRoute } from '../route.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { mapRoutes } from './maps.routes.js';
import { batchRoutes } from './batches.routes.js';
import { crawlRoutes } from './crawls.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import { retrieveRoutes } from './retrieve.routes.js';
import { scrapeRoutes } from './scrapes.routes.js';

/** Every `/v1` operation. A resource adds its routes file here (one line). */
export function v1Routes(services: Services): AnyRoute[] {
  return [
    ...scrapeRoutes(services),
    ...retrieveRoutes(services),
    ...batchRoutes(services),
    ...webhookRoutes(services),
    ...apiKeyRoutes(services),
    ...mapRoutes(services),
    ...crawlRoutes(services),
  ];
}
