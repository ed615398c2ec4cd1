import { z } from 'zod';
import type { BatchItem } from './batch-item.entity.js';
import type { ItemsPage } from './batch.service.js';
import type { Batch } from './batch.entity.js';
import { epochSeconds } from '../shared/time.js';

export const BatchObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('batch'),
    status: z.enum(['in_progress', 'completed', 'failed']),
    created: z.number().int().describe('Epoch seconds.'),
    completed_at: z.number().int().nullable().describe('Epoch seconds.'),
    start_date: z.string().describe('ISO 8601 UTC.'),
    total_urls: z.number().int(),
    completed_urls: z.number().int().describe('Items that ended (completed or failed).'),
    items_completed: z.number().int(),
    items_failed: z.number().int(),
    number_retried: z.number().int(),
    parser: z.string().describe('The parser id, or "none".'),
    country: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    webhook: z.string().nullable(),
    completion_window: z.string(),
    credits_consumed: z.number().nullable(),
    cost_usd: z.number().nullable(),
  })
  .meta({ id: 'Batch' });

export function presentBatch(batch: Batch): z.output<typeof BatchObject> {
  return {
    id: batch.id,
    object: 'batch',
    status: batch.status,
    created: epochSeconds(batch.createdAt),
    completed_at: batch.completedAt ? epochSeconds(batch.completedAt) : null,
    start_date: batch.createdAt.toISOString(),
    total_urls: batch.totalUrls,
    completed_urls: batch.itemsCompleted + batch.itemsFailed,
    items_completed: batch.itemsCompleted,
    items_failed: batch.itemsFailed,
    number_retried: batch.numberRetried,
    parser: batch.parser ?? 'none',
    country: batch.country,
    metadata: batch.metadata,
    webhook: batch.webhook,
    completion_window: '24h',
    credits_consumed: batch.itemsCompleted,
    cost_usd: null,
  };
}

export const BatchItemObject = z
  .looseObject({
    custom_id: z.string(),
    retrieve_id: z.string(),
    url: z.string(),
    metadata: z.record(z.string(), z.string()).optional(),
    status: z.enum(['queued', 'running', 'completed', 'failed']),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: 'BatchItem' });

export function presentBatchItem(item: BatchItem): z.output<typeof BatchItemObject> {
  return {
    custom_id: item.customId,
    retrieve_id: item.retrieveId,
    url: item.url,
    ...(item.metadata ? { metadata: item.metadata } : {}),
    status: item.status,
    ...(item.status === 'failed'
      ? { error: { code: item.errorCode ?? 'failed', message: item.errorMessage ?? '' } }
      : {}),
  };
}

export const BatchItemsObject = z
  .looseObject({
    id: z.string(),
    batch_id: z.string(),
    object: z.literal('batch'),
    status: z.string(),
    items: z.array(BatchItemObject),
    items_count: z.number().int().describe('Items matching the filter, in all pages.'),
    cursor: z.number().int().optional().describe('Present when a further page exists.'),
  })
  .meta({ id: 'BatchItemPage' });

export function presentItemsPage(page: ItemsPage): z.output<typeof BatchItemsObject> {
  return {
    id: page.batch.id,
    batch_id: page.batch.id,
    object: 'batch',
    status: page.batch.status,
    items: page.items.map(presentBatchItem),
    items_count: page.total,
    ...(page.nextCursor !== null ? { cursor: page.nextCursor } : {}),
  };
}
