import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';

export const DELIVERIES_PAGE = { max: 100, default: 50 } as const;

export const DeliveriesQuery = z.object({
  event_id: z.string().min(1).max(100).optional().describe('Only the attempts of this event.'),
  resource_id: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Only the attempts of events about this batch, crawl or monitor.'),
  event_type: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('Only the attempts of events of this type (`batch.completed`).'),
  success: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .transform((v) => v === 'true' || v === '1')
    .optional()
    .describe('Only the attempts the receiver answered 2xx (true), or only the others (false).'),
  cursor: queryInt(0, 1_000_000_000).optional().describe('Offset from the previous page.'),
  limit: queryInt(1, DELIVERIES_PAGE.max)
    .optional()
    .describe(`1 to ${DELIVERIES_PAGE.max}, default ${DELIVERIES_PAGE.default}.`),
});

export const DeliveryIdParams = z.object({ delivery_id: resourceId('delivery') });
