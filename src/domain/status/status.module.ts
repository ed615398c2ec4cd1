import { defineModule } from '../../module/app-module.js';
import { StatusService } from './status.service.js';
import { statusRoutes } from './status.routes.js';

/** `GET /v1/status`: the engines, model and search providers of this deployment, and how they are. */
export const statusModule = defineModule({
  name: 'status',
  services: (ctx) => ({ status: new StatusService({ engines: ctx.engines, models: ctx.models, search: ctx.search }) }),
  routes: ({ status }) => statusRoutes({ status }),
});
