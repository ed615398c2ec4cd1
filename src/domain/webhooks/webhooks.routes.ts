import { z } from 'zod';
import { DeliveriesQuery, DeliveryIdParams } from './webhook.schema.js';
import { WebhookDeliveryObject, presentDelivery } from './webhook.presenter.js';
import { defineRoute, Reply } from '../../module/route.js';
import type { WebhookService } from './webhook.service.js';

const tags = ['Webhooks'];

/** Extensions: delivery records, redelivery, and Standard Webhooks signatures (opt-in per team). */
export function webhookRoutes({ webhooks }: { webhooks: WebhookService }) {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/webhooks/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: 'List webhook delivery attempts',
      description:
        'Extension: every delivery attempt of the team, newest first, with what the receiver answered; only those of one event (`event_id`), of the events about one batch, crawl or monitor (`resource_id`), of one event type (`event_type`), or that succeeded or not (`success`).',
      tags,
      query: DeliveriesQuery,
      responses: {
        200: {
          description: 'Every attempt, newest first: status, duration, error.',
          schema: z.object({
            object: z.literal('list'),
            data: z.array(WebhookDeliveryObject),
            cursor: z.number().int().optional(),
          }),
        },
      },
      handler: async ({ actor, query }) => {
        const { deliveries, nextCursor } = await webhooks.deliveries(actor, query);
        return {
          object: 'list',
          data: deliveries.map(presentDelivery),
          ...(nextCursor !== null ? { cursor: nextCursor } : {}),
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/deliveries/{delivery_id}/redeliver',
      operationId: 'redeliverWebhook',
      summary: 'Send an event again',
      description: 'Starts a new series of attempts for the event of this delivery, with the same event id.',
      tags,
      params: DeliveryIdParams,
      responses: {
        202: {
          description: 'Queued for delivery.',
          schema: z.object({ object: z.literal('webhook.event'), id: z.string(), status: z.string() }),
        },
        404: { description: 'No such delivery (`delivery_not_found`).' },
        409: { description: 'The event is being delivered right now (`delivery_in_progress`).' },
      },
      handler: async ({ actor, params }) => {
        const event = await webhooks.redeliver(actor, params.delivery_id);
        return new Reply(202, { object: 'webhook.event', id: event.id, status: event.status });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/v1/webhooks/signing-secret',
      operationId: 'rotateWebhookSigningSecret',
      summary: 'Turn on (or rotate) webhook signatures',
      description:
        'Deliveries then carry Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature). The secret is shown once.',
      tags,
      responses: {
        200: {
          description: 'The new secret.',
          schema: z.object({ object: z.literal('webhook.signing_secret'), secret: z.string() }),
        },
      },
      handler: async ({ actor }) => ({
        object: 'webhook.signing_secret',
        secret: await webhooks.rotateSigningSecret(actor),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/webhooks/signing-secret',
      operationId: 'disableWebhookSigning',
      summary: 'Turn off webhook signatures',
      tags,
      responses: {
        200: {
          description: 'Signatures are off.',
          schema: z.object({ object: z.literal('webhook.signing_secret'), enabled: z.boolean() }),
        },
      },
      handler: async ({ actor }) => {
        await webhooks.disableSigning(actor);
        return { object: 'webhook.signing_secret', enabled: false };
      },
    }),
  ];
}
