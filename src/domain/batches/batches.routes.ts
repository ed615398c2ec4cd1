import { z } from 'zod';
import { BatchIdParams, BatchItemsQuery, CreateBatchInput, ListBatchesQuery, PatchBatchInput } from './batch.schema.js';
import { BatchItemsObject, BatchObject, presentBatch, presentItemsPage } from './batch.presenter.js';
import { defineRoute } from '../../module/route.js';
import type { BatchService } from './batch.service.js';

const tags = ['Batches'];
const notFound = { 404: { description: 'No such batch (`batch_not_found`).' } };

export function batchRoutes({ batches }: { batches: BatchService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/batches',
      operationId: 'createBatch',
      summary: 'Create a batch',
      description:
        'Up to 10,000 URLs scraped asynchronously with the same options as a single scrape. Accepted at once; the webhook (if any) receives batch.completed.',
      tags,
      body: CreateBatchInput,
      responses: {
        200: { description: 'The batch, in progress.', schema: BatchObject },
        403: { description: 'An item or the webhook is refused by the outbound policy.' },
      },
      handler: async ({ actor, body }) => presentBatch(await batches.create(actor, body)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/batches',
      operationId: 'listBatches',
      summary: 'List batches',
      tags,
      query: ListBatchesQuery,
      responses: {
        200: {
          description: 'The team’s batches, newest first.',
          schema: z.object({
            object: z.literal('list'),
            data: z.array(BatchObject),
            cursor: z.number().int().optional(),
          }),
        },
      },
      handler: async ({ actor, query }) => {
        const { batches: list, nextCursor } = await batches.list(actor, query);
        return { object: 'list', data: list.map(presentBatch), ...(nextCursor !== null ? { cursor: nextCursor } : {}) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/batches/{batch_id}',
      operationId: 'getBatch',
      summary: 'Get a batch',
      tags,
      params: BatchIdParams,
      responses: { 200: { description: 'The batch.', schema: BatchObject }, ...notFound },
      handler: async ({ actor, params }) => presentBatch(await batches.get(actor, params.batch_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/batches/{batch_id}',
      operationId: 'updateBatch',
      summary: 'Update batch metadata',
      tags,
      params: BatchIdParams,
      body: PatchBatchInput,
      responses: { 200: { description: 'The batch.', schema: BatchObject }, ...notFound },
      handler: async ({ actor, params, body }) =>
        presentBatch(await batches.patchMetadata(actor, params.batch_id, body.metadata)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/batches/{batch_id}/cancel',
      operationId: 'cancelBatch',
      summary: 'Cancel a batch',
      description:
        'Extension: the items not ended yet (queued or being fetched) end `cancelled` and nothing more is recorded for them; items that ended keep their results and counts. The batch ends `cancelled` (`completed_at` is when), its webhook receives `batch.cancelled`, and progress subscribers a last event. Cancelling a cancelled batch returns it unchanged.',
      tags,
      params: BatchIdParams,
      responses: {
        200: { description: 'The batch, cancelled.', schema: BatchObject },
        ...notFound,
        409: { description: 'The batch already completed or failed (`batch_not_in_progress`).' },
      },
      handler: async ({ actor, params }) => presentBatch(await batches.cancel(actor, params.batch_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/batches/{batch_id}/items',
      operationId: 'listBatchItems',
      summary: 'List batch items',
      tags,
      params: BatchIdParams,
      query: BatchItemsQuery,
      responses: { 200: { description: 'A page of items, in batch order.', schema: BatchItemsObject }, ...notFound },
      handler: async ({ actor, params, query }) => presentItemsPage(await batches.items(actor, params.batch_id, query)),
    }),
  ];
}
