import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';
import { ScrapeOptionsShape } from '../scrapes/scrape.schema.js';
import { MetadataSchema } from '../shared/metadata.schema.js';

export const BATCH_LIMITS = {
  maxItems: 10_000,
  customIdLength: 500,
  pageSize: { min: 1, max: 100, default: 50 },
} as const;

/** One item of a batch, inline or in a `purpose: "batch"` file (its URL's syntax is checked by the service). */
export const BatchItemInput = z.looseObject({
  custom_id: z
    .string({ error: 'is required (a string unique within the batch)' })
    .min(1)
    .max(BATCH_LIMITS.customIdLength),
  url: z.string({ error: 'is required (an absolute http(s) URL)' }).min(1).max(8192),
  metadata: MetadataSchema.optional(),
});

const webhookField = z.string().min(1).max(2048);

/** POST /v1/batches: the spec's fields plus the scrape options every item runs with. */
export const CreateBatchInput = z
  .strictObject({
    items: z
      .array(BatchItemInput, { error: 'is required (an array of {custom_id, url})' })
      .min(1, { error: 'must contain at least one item' })
      .max(BATCH_LIMITS.maxItems, { error: `at most ${BATCH_LIMITS.maxItems} items per batch` })
      .optional(),
    file_id: resourceId('file')
      .optional()
      .describe('A completed `purpose: "batch"` file holding the items (instead of `items`).'),
    ...ScrapeOptionsShape,
    metadata: MetadataSchema.optional(),
    webhook: webhookField.optional().describe('HTTPS URL that receives batch.completed.'),
    webhook_url: webhookField.optional().describe('Alias of webhook.'),
    completion_window: z.literal('24h').optional().describe('Accepted for compatibility; always 24h.'),
  })
  .superRefine((body, ctx) => {
    if (body.items === undefined && body.file_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['items'],
        message: 'is required (an array of {custom_id, url}), or file_id',
      });
    }
    if (body.items !== undefined && body.file_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['file_id'], message: 'send items or file_id, not both' });
    }
    const seen = new Map<string, number>();
    body.items?.forEach((item, i) => {
      const first = seen.get(item.custom_id);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['items', i, 'custom_id'],
          message: `duplicate custom_id ${JSON.stringify(item.custom_id)} (also items[${first}])`,
        });
      } else {
        seen.set(item.custom_id, i);
      }
    });
    if (body.webhook !== undefined && body.webhook_url !== undefined && body.webhook !== body.webhook_url) {
      ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: 'differs from webhook; send one of them' });
    }
  })
  .meta({ id: 'CreateBatchRequest' });

export type CreateBatchCommand = z.output<typeof CreateBatchInput>;

export const PatchBatchInput = z.strictObject({
  metadata: z
    .record(z.string(), z.unknown(), { error: 'is required: an object of string keys to string values' })
    .describe('Merged into the batch metadata; a key set to "" is removed.'),
});

export const BatchIdParams = z.object({ batch_id: resourceId('batch') });

const limit = queryInt(BATCH_LIMITS.pageSize.min, BATCH_LIMITS.pageSize.max)
  .optional()
  .describe(`1 to ${BATCH_LIMITS.pageSize.max}, default ${BATCH_LIMITS.pageSize.default}.`);
const cursor = queryInt(0, 1_000_000_000).optional().describe('Offset from the previous page.');

export const BatchItemsQuery = z.object({
  status: z
    .enum(['completed', 'failed', 'cancelled'], { error: 'must be completed, failed or cancelled' })
    .optional()
    .describe('completed, failed or cancelled.'),
  cursor,
  limit,
});

export const ListBatchesQuery = z.object({ cursor, limit });
