import { z } from 'zod';
import type { BatchItemView, BatchItemsPageView, BatchView } from './batch.view.js';

// REST: the views in the spec's snake_case (the schemas also document the responses).

export const BatchObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('batch'),
    status: z.enum(['in_progress', 'completed', 'failed', 'cancelled']),
    created: z.number().int().describe('Epoch seconds.'),
    completed_at: z.number().int().nullable().describe('Epoch seconds: when the batch ended (completed or cancelled).'),
    start_date: z.string().describe('ISO 8601 UTC.'),
    total_urls: z.number().int(),
    completed_urls: z.number().int().describe('Items that ended (completed or failed).'),
    items_completed: z.number().int(),
    items_failed: z.number().int(),
    items_cancelled: z.number().int().describe('Items that had not ended when the batch was cancelled.'),
    number_retried: z.number().int(),
    parser: z.string().describe('The parser id, or "none".'),
    country: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    webhook: z.string().nullable(),
    completion_window: z.string(),
    credits_consumed: z.number().nullable(),
    cost_usd: z.number().nullable(),
    warning: z.string().optional().describe('Present when json_content of the items is filled without a model.'),
  })
  .meta({ id: 'Batch' });

export function presentBatch(batch: BatchView): z.output<typeof BatchObject> {
  return {
    id: batch.id,
    object: 'batch',
    status: batch.status,
    created: batch.created,
    completed_at: batch.completedAt,
    start_date: batch.startDate,
    total_urls: batch.totalUrls,
    completed_urls: batch.completedUrls,
    items_completed: batch.itemsCompleted,
    items_failed: batch.itemsFailed,
    items_cancelled: batch.itemsCancelled,
    number_retried: batch.numberRetried,
    parser: batch.parser,
    country: batch.country,
    metadata: batch.metadata,
    webhook: batch.webhook,
    completion_window: batch.completionWindow,
    credits_consumed: batch.creditsConsumed,
    cost_usd: batch.costUsd,
    ...(batch.warning ? { warning: batch.warning } : {}),
  };
}

export const BatchItemObject = z
  .looseObject({
    custom_id: z.string(),
    retrieve_id: z.string(),
    url: z.string(),
    metadata: z.record(z.string(), z.string()).optional(),
    status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .meta({ id: 'BatchItem' });

export function presentBatchItem(item: BatchItemView): z.output<typeof BatchItemObject> {
  return {
    custom_id: item.customId,
    retrieve_id: item.retrieveId,
    url: item.url,
    ...(item.metadata ? { metadata: item.metadata } : {}),
    status: item.status,
    ...(item.error ? { error: item.error } : {}),
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

export function presentItemsPage(page: BatchItemsPageView): z.output<typeof BatchItemsObject> {
  return {
    id: page.batchId,
    batch_id: page.batchId,
    object: 'batch',
    status: page.status,
    items: page.items.map(presentBatchItem),
    items_count: page.itemsCount,
    ...(page.cursor !== null ? { cursor: page.cursor } : {}),
  };
}
