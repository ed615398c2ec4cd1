import { z } from 'zod';
import type { WebhookDeliveryView } from './webhook.view.js';

export const WebhookDeliveryObject = z
  .object({
    id: z.string(),
    object: z.literal('webhook.delivery'),
    event_id: z.string(),
    event_type: z.string(),
    resource_id: z.string(),
    attempt: z.number().int(),
    url: z.string(),
    status_code: z.number().int().nullable(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    success: z.boolean(),
    event_status: z.string().describe('pending, delivering, delivered or failed.'),
    created: z.number().int(),
  })
  .meta({ id: 'WebhookDelivery' });

export function presentDelivery(delivery: WebhookDeliveryView): z.output<typeof WebhookDeliveryObject> {
  return {
    id: delivery.id,
    object: 'webhook.delivery',
    event_id: delivery.eventId,
    event_type: delivery.eventType,
    resource_id: delivery.resourceId,
    attempt: delivery.attempt,
    url: delivery.url,
    status_code: delivery.statusCode,
    duration_ms: delivery.durationMs,
    error: delivery.error,
    success: delivery.success,
    event_status: delivery.eventStatus,
    created: delivery.created,
  };
}
