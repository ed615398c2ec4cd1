import { LockMode } from '@mikro-orm/core';
import type { Orm } from '../../db/orm.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { parseTargetUrl } from '../../engine/target-url.js';
import { AppError, errors } from '../../errors.js';
import { newId, randomBase36 } from '../../ids.js';
import type { BatchProgressEvent } from '../../pubsub/events.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import { parseInput } from '../../validation.js';
import type { Actor } from '../auth/actor.js';
import type { ScrapeExecutor } from '../scrapes/scrape-executor.js';
import { MetadataSchema } from '../shared/metadata.schema.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-url.js';
import { exec } from '../../db/sql.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import { BatchItem } from './batch-item.entity.js';
import { BATCH_ITEM_JOB } from './batch-ledger.js';
import { cancelBatch } from './batch-cancel.js';
import type { ScrapeOptions } from '../scrapes/scrape.schema.js';
import { batchItemView, batchProgressEvent, batchView, type BatchItemsPageView, type BatchView } from './batch.view.js';
import type { WorkSignal } from '../../workers/work-signal.js';
import { BATCH_LIMITS, type CreateBatchCommand } from './batch.schema.js';
import { Batch } from './batch.entity.js';

export interface BatchServiceDeps {
  orm: Orm;
  executor: ScrapeExecutor;
  guard: OutboundGuard;
  pubsub: PubSub;
  queue: JobQueue;
  webhookUrls: WebhookUrlPolicy;
  /** Where a cancelled batch's `batch.cancelled` event goes. */
  outbox: WebhookOutbox;
  /** Wakes this process's job supervisor when a batch is queued. */
  work?: WorkSignal;
  /** Where `file_id` batches read their items (the files module); without it `file_id` is refused. */
  files?: BatchFileSource;
}

/** A completed `purpose: "batch"` file's items and batch options (the files module provides it). */
export interface BatchFileSource {
  /** 404 for an unknown file of the actor's team, 400 for one not completed or of another purpose. */
  readBatchItems(
    actor: Actor,
    fileId: string,
  ): Promise<{
    items: NonNullable<CreateBatchCommand['items']>;
    options: Omit<CreateBatchCommand, 'items' | 'file_id'>;
  }>;
}

/** Batches: accepted at once (items inserted in bulk), run by the workers, read back in pages. */
export class BatchService {
  constructor(private readonly deps: BatchServiceDeps) {}

  /** A batch of inline `items`, or of the items of a completed batch file (`file_id`). */
  async create(actor: Actor, command: CreateBatchCommand): Promise<BatchView> {
    const { items, file_id, ...requested } = command;
    if (file_id === undefined) return this.createOf(actor, items!, requested);
    if (!this.deps.files) throw errors.validation('file_id: batches from files are not available');
    const file = await this.deps.files.readBatchItems(actor, file_id);
    // The file's own batch options (its object layout) apply unless the request sets them too.
    return this.createOf(actor, file.items, { ...file.options, ...requested });
  }

  private async createOf(
    actor: Actor,
    items: NonNullable<CreateBatchCommand['items']>,
    command: Omit<CreateBatchCommand, 'items' | 'file_id'>,
  ): Promise<BatchView> {
    const { metadata, webhook, webhook_url, completion_window: _window, ...options } = command;
    const targets = items.map((item, i) => this.checkItemUrl(item.url, `items[${i}].url`));
    const hook = webhook ?? webhook_url;
    const webhookUrl = hook
      ? await this.deps.webhookUrls.validate(hook, webhook !== undefined ? 'webhook' : 'webhook_url')
      : null;
    this.deps.executor.prepare(options); // formats, parser, engine capabilities: refused before anything is stored
    const batch = Object.assign(new Batch(), {
      id: newId('batch'),
      teamId: actor.teamId,
      status: 'in_progress',
      totalUrls: items.length,
      options,
      parser: options.parser?.id ?? null,
      country: options.country ?? null,
      metadata: metadata ?? {},
      webhook: webhookUrl,
      createdAt: new Date(),
    });
    const rows = items.map((item, i) => ({
      id: newId('item'),
      batch_id: batch.id,
      team_id: actor.teamId,
      seq: i,
      custom_id: item.custom_id,
      url: targets[i]!.href,
      host: targets[i]!.host.toLowerCase(),
      metadata: item.metadata ?? null,
      retrieve_id: randomBase36(20),
    }));
    await this.deps.orm.em.fork().transactional(async (em) => {
      em.persist(batch);
      await em.flush();
      await exec(
        em,
        `insert into batch_items (id, batch_id, team_id, seq, custom_id, url, host, metadata, retrieve_id, status)
         select r.id, r.batch_id, r.team_id, r.seq, r.custom_id, r.url, r.host, r.metadata, r.retrieve_id, 'queued'
         from jsonb_to_recordset(?::jsonb) as r(id text, batch_id text, team_id text, seq int, custom_id text, url text,
                                                host text, metadata jsonb, retrieve_id text)`,
        [JSON.stringify(rows)],
      );
      // Each item is a job on the queue: its id is the item's, its concurrency key the host.
      await this.deps.queue.enqueue(
        rows.map((r) => ({
          id: r.id,
          kind: BATCH_ITEM_JOB,
          teamId: r.team_id,
          payload: { batchId: r.batch_id, url: r.url, retrieveId: r.retrieve_id },
          concurrencyKey: r.host,
        })),
        em,
      );
    });
    this.deps.work?.notify();
    await this.deps.pubsub.publish(batchProgressEvent(batch));
    return this.view(batch);
  }

  async get(actor: Actor, id: string): Promise<BatchView> {
    return this.view(await this.find(actor, id));
  }

  /** The batch's progress now (404 for another team's batch): the first event a subscriber gets. */
  async progress(actor: Actor, id: string): Promise<BatchProgressEvent> {
    return batchProgressEvent(await this.find(actor, id));
  }

  /** Merges metadata: keys added or replaced; a key set to "" is removed. */
  async patchMetadata(actor: Actor, id: string, patch: Record<string, unknown>): Promise<BatchView> {
    const em = this.deps.orm.em.fork();
    return em.transactional(async (tx) => {
      const batch = await tx.findOne(Batch, { id, teamId: actor.teamId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!batch) throw errors.notFound('batch', id);
      const merged: Record<string, unknown> = { ...batch.metadata };
      for (const [key, value] of Object.entries(patch)) {
        if (value === '') delete merged[key];
        else merged[key] = value;
      }
      batch.metadata = parseInput(MetadataSchema, merged, 'metadata');
      await tx.flush();
      return this.view(batch);
    });
  }

  /**
   * Cancels a batch in progress (`cancelBatch`): its items not ended yet are cancelled (a
   * worker fetching one records nothing of it), the batch ends `cancelled` with the counts it
   * had, its webhook gets `batch.cancelled` and subscribers a last progress event. Cancelling a
   * cancelled batch returns it unchanged; a batch that ended otherwise is a 409.
   */
  async cancel(actor: Actor, id: string): Promise<BatchView> {
    const result = await this.deps.orm.em.fork().transactional((em) => cancelBatch(em, this.deps, actor.teamId, id));
    if (!result) throw errors.notFound('batch', id);
    const batch = await this.find(actor, id);
    if (batch.status !== 'cancelled') {
      throw new AppError(
        'conflict',
        'batch_not_in_progress',
        `batch ${id} is ${batch.status}: only a batch in progress can be cancelled`,
      );
    }
    if (result.cancelledNow) await this.deps.pubsub.publish(batchProgressEvent(batch));
    return this.view(batch);
  }

  async items(
    actor: Actor,
    id: string,
    query: { status?: 'completed' | 'failed' | 'cancelled'; cursor?: number; limit?: number },
  ): Promise<BatchItemsPageView> {
    const batch = await this.find(actor, id);
    const em = this.deps.orm.em.fork();
    const where = { batchId: batch.id, ...(query.status ? { status: query.status } : {}) };
    const limit = query.limit ?? BATCH_LIMITS.pageSize.default;
    const offset = query.cursor ?? 0;
    const [items, total] = await em.findAndCount(BatchItem, where, { orderBy: { seq: 'asc' }, limit, offset });
    // An item not ended yet is `running` while its job is leased (the job queue knows).
    const open = items.filter((i) => i.status === 'queued').map((i) => i.id);
    if (open.length > 0) {
      const running = await exec<{ id: string }>(em, `select id from jobs where id in (?) and status = 'running'`, [
        open,
      ]);
      const ids = new Set(running.map((r) => r.id));
      for (const item of items) if (ids.has(item.id)) item.status = 'running';
    }
    return {
      batchId: batch.id,
      status: batch.status,
      items: items.map(batchItemView),
      itemsCount: total,
      cursor: offset + items.length < total ? offset + items.length : null,
    };
  }

  async list(
    actor: Actor,
    query: { cursor?: number; limit?: number },
  ): Promise<{ batches: BatchView[]; nextCursor: number | null }> {
    const limit = query.limit ?? BATCH_LIMITS.pageSize.default;
    const offset = query.cursor ?? 0;
    const [batches, total] = await this.deps.orm.em
      .fork()
      .findAndCount(Batch, { teamId: actor.teamId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset });
    return {
      batches: batches.map((batch) => this.view(batch)),
      nextCursor: offset + batches.length < total ? offset + batches.length : null,
    };
  }

  /** The batch's view, with what its options mean for json_content (a rules-only llm_extract). */
  private view(batch: Batch): BatchView {
    return batchView(batch, this.deps.executor.jsonWarning(batch.options as ScrapeOptions));
  }
  private async find(actor: Actor, id: string): Promise<Batch> {
    const batch = await this.deps.orm.em.fork().findOne(Batch, { id, teamId: actor.teamId });
    if (!batch) throw errors.notFound('batch', id);
    return batch;
  }

  /** Syntax and policy checks that need no DNS; a name resolving privately fails its item later. */
  private checkItemUrl(url: string, field: string): URL {
    const target = parseTargetUrl(url, field);
    try {
      this.deps.guard.checkUrl(target);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.kind, err.code, `${field}: ${err.detail}`);
      throw err;
    }
    return target;
  }
}
