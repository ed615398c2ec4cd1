import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';

export const DeliveriesQuery = z.object({
  event_id: z.string().min(1).max(100).optional().describe('Only the attempts of this event.'),
  cursor: queryInt(0, 1_000_000_000).optional(),
  limit: queryInt(1, 100).optional(),
});

export const DeliveryIdParams = z.object({ delivery_id: resourceId('delivery') });
