import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import type { BatchProgressEvent } from '../../pubsub/events.js';
import { progressStream } from '../../pubsub/progress-stream.js';
import { resourceChannel } from '../../pubsub/events.js';
import { BATCH_LIMITS, BatchIdParams, BatchItemsQuery, CreateBatchInput, PatchBatchInput } from './batch.schema.js';
import type { BatchService } from './batch.service.js';
import type { BatchItemView, BatchItemsPageView, BatchView } from './batch.view.js';

/** GraphQL passes numbers, REST passes query strings: the same limits, typed as numbers. */
const pageArgs = {
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(100).optional(),
};

/** Batches over GraphQL: the same views and zod schemas as REST, and live progress. */
export function batchGraphQL(kit: GraphQLKit, batches: BatchService): void {
  const { builder } = kit;

  const BatchProgressRef = builder.objectRef<BatchProgressEvent>('BatchProgress').implement({
    description: 'Progress of a batch: sent as items end (at most a few per second) and always when it completes.',
    fields: (t) => ({
      batchId: t.exposeID('batchId'),
      status: t.exposeString('status'),
      total: t.exposeInt('total'),
      completed: t.exposeInt('completed', { description: 'Items completed.' }),
      failed: t.exposeInt('failed', { description: 'Items failed.' }),
      retried: t.exposeInt('retried', { description: 'Retries so far.' }),
      at: t.exposeFloat('at', { description: 'Epoch milliseconds.' }),
    }),
  });
  kit.teamEvent(BatchProgressRef, ['batch.progress']);

  const BatchItemRef = builder.objectRef<BatchItemView>('BatchItem').implement({
    fields: (t) => ({
      customId: t.exposeString('customId'),
      retrieveId: t.exposeID('retrieveId', { description: 'Use with the retrieve query.' }),
      url: t.exposeString('url'),
      status: t.exposeString('status'),
      metadata: t.expose('metadata', { type: 'JSON', nullable: true }),
      errorCode: t.string({ nullable: true, resolve: (i) => i.error?.code ?? null }),
      errorMessage: t.string({ nullable: true, resolve: (i) => i.error?.message ?? null }),
    }),
  });

  const BatchItemPageRef = builder.objectRef<BatchItemsPageView>('BatchItemPage').implement({
    fields: (t) => ({
      // Counted once per item by the `limit` of the field that returned this page.
      items: t.expose('items', { type: [BatchItemRef], complexity: { field: 1, multiplier: 1 } }),
      itemsCount: t.exposeInt('itemsCount', { description: 'Items matching the filter, in all pages.' }),
      cursor: t.exposeInt('cursor', { nullable: true, description: 'Pass as `cursor` for the next page.' }),
    }),
  });

  const BatchRef = builder.objectRef<BatchView>('Batch').implement({
    description: 'A batch of URLs scraped asynchronously.',
    fields: (t) => ({
      id: t.exposeID('id'),
      status: t.exposeString('status'),
      created: t.exposeInt('created'),
      completedAt: t.exposeInt('completedAt', { nullable: true }),
      startDate: t.exposeString('startDate'),
      totalUrls: t.exposeInt('totalUrls'),
      completedUrls: t.exposeInt('completedUrls'),
      itemsCompleted: t.exposeInt('itemsCompleted'),
      itemsFailed: t.exposeInt('itemsFailed'),
      numberRetried: t.exposeInt('numberRetried'),
      parser: t.exposeString('parser'),
      warning: t.exposeString('warning', {
        nullable: true,
        description: 'Present when jsonContent of the items is filled without a model.',
      }),
      country: t.exposeString('country', { nullable: true }),
      metadata: t.expose('metadata', { type: 'JSON' }),
      webhook: t.exposeString('webhook', { nullable: true }),
      items: t.field({
        type: BatchItemPageRef,
        args: { status: t.arg.string(), cursor: t.arg.int(), limit: t.arg.int() },
        complexity: kit.pageCost(BATCH_LIMITS.pageSize.default),
        validate: kit.validate(kit.fromCamel(BatchItemsQuery.extend(pageArgs))),
        resolve: (b, args, ctx) => batches.items(ctx.actor(), b.id, kit.parsed<z.output<typeof BatchItemsQuery>>(args)),
      }),
    }),
  });

  const CreateBatch = kit.input(CreateBatchInput, 'CreateBatchInput', {
    names: { items: 'CreateBatchItemInput' },
  });

  builder.queryFields((t) => ({
    batch: t.field({
      type: BatchRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(BatchIdParams.shape.batch_id),
      resolve: (_, args, ctx) => batches.get(ctx.actor(), String(args.id)),
    }),
    batches: t.field({
      type: [BatchRef],
      description: 'The team’s batches, newest first.',
      args: { cursor: t.arg.int(), limit: t.arg.int() },
      complexity: kit.pageCost(BATCH_LIMITS.pageSize.default),
      validate: kit.validate(z.object(pageArgs)),
      resolve: async (_, args, ctx) =>
        (await batches.list(ctx.actor(), kit.parsed<{ cursor?: number; limit?: number }>(args))).batches,
    }),
  }));

  builder.mutationFields((t) => ({
    createBatch: t.field({
      type: BatchRef,
      args: { input: t.arg({ type: CreateBatch, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateBatchInput) })),
      resolve: (_, args, ctx) =>
        batches.create(ctx.actor(), kit.parsed<{ input: z.output<typeof CreateBatchInput> }>(args).input),
    }),
    updateBatchMetadata: t.field({
      type: BatchRef,
      description: 'Merges metadata; a key set to "" is removed.',
      args: { id: t.arg.id({ required: true }), metadata: t.arg({ type: 'JSON', required: true }) },
      validate: kit.validate(z.object({ id: BatchIdParams.shape.batch_id, metadata: PatchBatchInput.shape.metadata })),
      resolve: (_, args, ctx) => {
        const { id, metadata } = kit.parsed<{ id: string; metadata: Record<string, unknown> }>(args);
        return batches.patchMetadata(ctx.actor(), id, metadata);
      },
    }),
  }));

  builder.subscriptionFields((t) => ({
    batchProgress: t.field({
      type: BatchProgressRef,
      description: 'Progress of one batch: its current state first, then every update until it completes.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(BatchIdParams.shape.batch_id),
      subscribe: async function* (_, args, ctx) {
        const actor = ctx.actor();
        // Subscribe before reading the state, so no update falls between the two.
        const events = ctx.pubsub.subscribe(resourceChannel('batch', String(args.id)));
        try {
          const current = await batches.progress(actor, String(args.id)); // 404 for another team's batch
          yield* progressStream<BatchProgressEvent>(current, events, (e) => e.completed + e.failed + e.retried);
        } finally {
          await events.return?.();
        }
      },
      resolve: (event) => event,
    }),
  }));
}
