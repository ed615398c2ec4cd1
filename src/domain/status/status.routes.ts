import { defineRoute } from '../../module/route.js';
import { presentStatus, StatusObject } from './status.presenter.js';
import type { StatusService } from './status.service.js';

export function statusRoutes({ status }: { status: StatusService }) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/status',
      operationId: 'getStatus',
      summary: 'What this deployment can do',
      description:
        'Extension: every engine, model provider and search provider of this build, whether it runs in this deployment (and if not, why and how to enable it), its capabilities and priority, and its health as it knows it (a remote browser that cannot be reached is `failing`). Nothing is probed and nothing secret is shown (no addresses, keys or tokens).',
      tags: ['Status'],
      responses: { 200: { description: 'The status.', schema: StatusObject } },
      handler: () => presentStatus(status.get()),
    }),
  ];
}
