import { z } from 'zod';
import type { DeliveryView } from './webhook.service.js';
import { epochSeconds } from '../shared/time.js';

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

export function presentDelivery({ attempt, event }: DeliveryView): z.output<typeof WebhookDeliveryObject> {
  return {
    id: attempt.id,
    object: 'webhook.delivery',
    event_id: attempt.eventId,
    event_type: event.type,
    resource_id: event.resourceId,
    attempt: attempt.attempt,
    url: attempt.url,
    status_code: attempt.statusCode,
    duration_ms: attempt.durationMs,
    error: attempt.error,
    success: attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300,
    event_status: event.status,
    created: epochSeconds(attempt.createdAt),
  };
}
