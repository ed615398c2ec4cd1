import { z } from 'zod';
import { batchProgressEvent } from '../../src/domain/batches/batch-progress.js';
import {
  BATCH_LIMITS,
  BatchIdParams,
  BatchItemsQuery,
  CreateBatchInput,
  PatchBatchInput,
} from '../../src/domain/batches/batch.schema.js';
import type { BatchProgressEvent } from '../../src/pubsub/events.js';
import { resourceChannel } from '../../src/pubsub/events.js';
import type { presentBatchItem } from '../../src/domain/batches/batch.presenter.js';
import { presentBatch, presentItemsPage } from '../../src/domain/batches/batch.presenter.js';
import { builder } from '../builder.js';
import { fromCamel, validateId, validateWith } from '../camel-input.js';
import { pageCost } from '../cost.js';
import { BatchProgressRef } from './events.js';

type Presented = Record<string, unknown>;

const BatchItemRef = builder.objectRef<ReturnType<typeof presentBatchItem>>('BatchItem').implement({
  fields: (t) => ({
    customId: t.string({ resolve: (i) => i.custom_id }),
    retrieveId: t.id({ resolve: (i) => i.retrieve_id, description: 'Use with the retrieve query.' }),
    url: t.string({ resolve: (i) => i.url }),
    status: t.string({ resolve: (i) => i.status }),
    metadata: t.field({ type: 'JSON', nullable: true, resolve: (i) => i.metadata ?? null }),
    errorCode: t.string({ nullable: true, resolve: (i) => i.error?.code ?? null }),
    errorMessage: t.string({ nullable: true, resolve: (i) => i.error?.message ?? null }),
  }),
});

const BatchItemPageRef = builder.objectRef<ReturnType<typeof presentItemsPage>>('BatchItemPage').implement({
  fields: (t) => ({
    // Counted once per item by the `limit` of the field that returned this page.
    items: t.field({ type: [BatchItemRef], complexity: { field: 1, multiplier: 1 }, resolve: (p) => p.items }),
    itemsCount: t.int({ description: 'Items matching the filter, in all pages.', resolve: (p) => p.items_count }),
    cursor: t.int({
      nullable: true,
      description: 'Pass as `cursor` for the next page.',
      resolve: (p) => p.cursor ?? null,
    }),
  }),
});

const BatchRef = builder.objectRef<{ presented: Presented; id: string }>('Batch').implement({
  description: 'A batch of URLs scraped asynchronously.',
  fields: (t) => {
    const field = (key: string) => (b: { presented: Presented }) => b.presented[key];
    return {
      id: t.id({ resolve: (b) => b.id }),
      status: t.string({ resolve: (b) => field('status')(b) as string }),
      created: t.int({ resolve: (b) => field('created')(b) as number }),
      completedAt: t.int({ nullable: true, resolve: (b) => field('completed_at')(b) as number | null }),
      startDate: t.string({ resolve: (b) => field('start_date')(b) as string }),
      totalUrls: t.int({ resolve: (b) => field('total_urls')(b) as number }),
      completedUrls: t.int({ resolve: (b) => field('completed_urls')(b) as number }),
      itemsCompleted: t.int({ resolve: (b) => field('items_completed')(b) as number }),
      itemsFailed: t.int({ resolve: (b) => field('items_failed')(b) as number }),
      numberRetried: t.int({ resolve: (b) => field('number_retried')(b) as number }),
      parser: t.string({ resolve: (b) => field('parser')(b) as string }),
      country: t.string({ nullable: true, resolve: (b) => field('country')(b) as string | null }),
      metadata: t.field({ type: 'JSON', resolve: (b) => field('metadata')(b) }),
      webhook: t.string({ nullable: true, resolve: (b) => field('webhook')(b) as string | null }),
      items: t.field({
        type: BatchItemPageRef,
        args: { status: t.arg.string(), cursor: t.arg.int(), limit: t.arg.int() },
        complexity: pageCost(BATCH_LIMITS.pageSize.default),
        validate: validateWith(fromCamel(BatchItemsQuery.extend(pageArgs))),
        resolve: async (b, args, ctx) =>
          presentItemsPage(
            await ctx.services.batches.items(ctx.actor(), b.id, args as z.output<typeof BatchItemsQuery>),
          ),
      }),
    };
  },
});

/** GraphQL passes numbers, REST passes query strings: the same limits, typed as numbers. */
const pageArgs = {
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(100).optional(),
};

const asBatch = (batch: Parameters<typeof presentBatch>[0]) => ({ id: batch.id, presented: presentBatch(batch) });

const CreateBatchItemInput = builder.inputType('CreateBatchItemInput', {
  fields: (t) => ({
    customId: t.string({ required: true }),
    url: t.string({ required: true }),
    metadata: t.field({ type: 'JSON' }),
  }),
});

const CreateBatchGqlInput = builder.inputType('CreateBatchInput', {
  fields: (t) => ({
    items: t.field({ type: [CreateBatchItemInput], required: true }),
    formats: t.stringList(),
    country: t.string(),
    parser: t.field({ type: 'JSON', description: '{ "id": "<parser>" }' }),
    linksOnPage: t.field({ type: 'JSON' }),
    transformer: t.string(),
    metadata: t.field({ type: 'JSON' }),
    webhook: t.string({ description: 'HTTPS URL that receives batch.completed.' }),
  }),
});

builder.queryFields((t) => ({
  batch: t.field({
    type: BatchRef,
    args: { id: t.arg.id({ required: true }) },
    validate: validateId(BatchIdParams.shape.batch_id),
    resolve: async (_, args, ctx) => asBatch(await ctx.services.batches.get(ctx.actor(), String(args.id))),
  }),
  batches: t.field({
    type: [BatchRef],
    description: 'The team’s batches, newest first.',
    args: { cursor: t.arg.int(), limit: t.arg.int() },
    complexity: pageCost(BATCH_LIMITS.pageSize.default),
    validate: validateWith(z.object(pageArgs)),
    resolve: async (_, args, ctx) =>
      (await ctx.services.batches.list(ctx.actor(), args as { cursor?: number; limit?: number })).batches.map(asBatch),
  }),
}));

builder.mutationFields((t) => ({
  createBatch: t.field({
    type: BatchRef,
    args: { input: t.arg({ type: CreateBatchGqlInput, required: true }) },
    validate: validateWith(z.object({ input: fromCamel(CreateBatchInput) })),
    resolve: async (_, args, ctx) => {
      const { input } = args as unknown as { input: z.output<typeof CreateBatchInput> };
      return asBatch(await ctx.services.batches.create(ctx.actor(), input));
    },
  }),
  updateBatchMetadata: t.field({
    type: BatchRef,
    description: 'Merges metadata; a key set to "" is removed.',
    args: { id: t.arg.id({ required: true }), metadata: t.arg({ type: 'JSON', required: true }) },
    validate: validateWith(z.object({ id: BatchIdParams.shape.batch_id, metadata: PatchBatchInput.shape.metadata })),
    resolve: async (_, args, ctx) => {
      const { id, metadata } = args as unknown as { id: string; metadata: Record<string, unknown> };
      return asBatch(await ctx.services.batches.patchMetadata(ctx.actor(), id, metadata));
    },
  }),
}));

builder.subscriptionFields((t) => ({
  batchProgress: t.field({
    type: BatchProgressRef,
    description: 'Progress of one batch: its current state first, then every update until it completes.',
    args: { id: t.arg.id({ required: true }) },
    validate: validateId(BatchIdParams.shape.batch_id),
    subscribe: async function* (_, args, ctx) {
      const actor = ctx.actor();
      // Subscribe before reading the state, so no update falls between the two.
      const events = ctx.pubsub.subscribe(resourceChannel('batch', String(args.id)));
      try {
        const batch = await ctx.services.batches.get(actor, String(args.id)); // 404 for another team's batch
        yield batchProgressEvent(batch);
        if (batch.status !== 'in_progress') return;
        for await (const event of events) {
          yield event as BatchProgressEvent;
          if ((event as BatchProgressEvent).status !== 'in_progress') return;
        }
      } finally {
        await events.return?.();
      }
    },
    resolve: (event) => event,
  }),
}));
