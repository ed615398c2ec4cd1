import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { AppError, errors } from '../../errors.js';
import { newId, randomBase36 } from '../../ids.js';
import type { DomainEvent } from '../../pubsub/events.js';
import { resourceChannel } from '../../pubsub/events.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { WorkSignal } from '../../workers/work-signal.js';
import type { Actor } from '../auth/actor.js';
import { METADATA_LIMITS } from '../shared/metadata.schema.js';
import { epochSeconds } from '../shared/time.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-url.js';
import { fieldError } from './field-error.js';
import {
  checkDetection,
  checkOutputSchema,
  checkPolicyAddresses,
  checkTrackedUrl,
  resolveFrequency,
  resolveNotification,
  resolveWebhook,
} from './monitor-input.js';
import type { MonitorNotifier } from './monitor-notifier.js';
import { PROVISIONING_PHASES, type MonitorEventPublished, type MonitorProgressEvent } from './monitor-progress.js';
import type { MonitorRecord } from './monitor-record.js';
import { MONITOR_PROVISION_JOB, manualRunJob, newRunId, nextDue, scheduledRunJob } from './monitor-schedule.js';
import { monitorStore } from './monitor-store.js';
import { MONITOR_LIMITS, type CreateMonitorCommand, type UpdateMonitorCommand } from './monitor.schema.js';
import { monitorView, type MonitorEventView, type MonitorRunView, type MonitorView } from './monitor.view.js';
import { monitorMermaidDiagram, planMonitor } from './planning/index.js';

export interface MonitorServiceDeps {
  orm: Orm;
  queue: JobQueue;
  pubsub: PubSub;
  guard: OutboundGuard;
  search: SearchRegistry;
  webhookUrls: WebhookUrlPolicy;
  notifier: MonitorNotifier;
  work?: WorkSignal;
  minIntervalMs: number;
  smtpConfigured: boolean;
}

/** What a creation stream carries, before the transport names it. */
export type ProvisioningItem =
  | { kind: 'phase'; phase: string; message: string }
  | { kind: 'reasoning_token'; token: string }
  | { kind: 'complete'; monitor: MonitorView }
  | { kind: 'error'; error: string; monitorId: string };

/** What a monitor's progress stream carries. */
export type ProgressItem = MonitorProgressEvent | MonitorEventPublished;

export interface EventsPage {
  data: MonitorEventView[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number;
}

/**
 * Monitors: created at once from a natural-language query (planned, checked, stored with their
 * provisioning job in one transaction), provisioned and run by jobs, changed, paused, resumed
 * and deleted here. Nothing is stored or queued for a request that fails validation.
 */
export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  /** Validates and plans a creation; nothing is stored. Throws the 400/403 of the first problem. */
  async prepare(actor: Actor, command: CreateMonitorCommand, now = new Date()): Promise<MonitorRecord> {
    checkPolicyAddresses(command.source_policy, this.deps.guard);
    const plan = planMonitor(command.query, command.source_policy ?? {});
    const schedule = await resolveFrequency(command.frequency, this.deps.minIntervalMs, now);
    const channels = { webhookUrls: this.deps.webhookUrls, smtpConfigured: this.deps.smtpConfigured };
    const notification = await resolveNotification(command.notification, channels);
    const webhook = await resolveWebhook(command.webhook, this.deps.webhookUrls);
    checkOutputSchema(command.output_schema);
    const detection = checkDetection(command.detection);
    for (const url of plan.tracked.urls) await checkTrackedUrl(url, this.deps.guard);
    if (plan.tracked.web_query !== null && plan.tracked.urls.length === 0 && !this.deps.search.default()) {
      throw fieldError(
        'query',
        `names no URL or domain to watch, and no search provider is configured to search the web for "${plan.tracked.web_query}"`,
      );
    }
    return {
      id: newId('monitor'),
      teamId: actor.teamId,
      status: 'provisioning',
      query: command.query,
      tracked: plan.tracked,
      planExplanation: plan.explanation,
      sourcePolicy: plan.source_policy,
      frequency: schedule.frequency,
      cron: schedule.cron,
      nextRunAt: null,
      notification,
      webhook,
      outputSchema: command.output_schema ?? null,
      detection: command.detection ?? null,
      metadata: command.metadata ?? {},
      channelState: {},
      errorMessage: null,
      lastRun: null,
      agentId: `agent_${randomBase36()}`,
      mermaidDiagram: monitorMermaidDiagram({
        tracked: plan.tracked,
        frequency: schedule.frequency,
        detection,
        output_schema: command.output_schema,
        notification,
        webhook,
      }),
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Stores a prepared monitor and queues its provisioning (202 `provisioning`). */
  async create(actor: Actor, command: CreateMonitorCommand): Promise<MonitorView> {
    return this.insert(await this.prepare(actor, command));
  }

  /**
   * Creates the monitor and follows its provisioning: `phase` per step, `reasoning_token`s
   * when a model plans, then `complete` with the active monitor, or `error`.
   */
  async createStreaming(
    actor: Actor,
    command: CreateMonitorCommand,
    signal: AbortSignal,
  ): Promise<AsyncIterable<ProvisioningItem>> {
    const monitor = await this.prepare(actor, command);
    // Subscribed before the job exists: no phase can be published before we listen.
    const events = this.deps.pubsub.subscribe(resourceChannel('monitor', monitor.id), signal);
    try {
      await this.insert(monitor);
    } catch (err) {
      await events.return?.();
      throw err;
    }
    return this.provisioning(actor, monitor.id, events);
  }

  private async *provisioning(
    actor: Actor,
    id: string,
    events: AsyncIterableIterator<DomainEvent>,
  ): AsyncIterable<ProvisioningItem> {
    try {
      for await (const raw of events) {
        if (raw.type !== 'monitor.progress') continue;
        const event = raw as MonitorProgressEvent;
        if (event.runId !== null && event.phase !== 'provisioned') continue; // steps of the first run
        if ((PROVISIONING_PHASES as readonly string[]).includes(event.phase)) {
          yield { kind: 'phase', phase: event.phase, message: event.message };
        } else if (event.phase === 'reasoning_token' && event.token !== null) {
          yield { kind: 'reasoning_token', token: event.token };
        } else if (event.phase === 'provisioned') {
          yield { kind: 'complete', monitor: await this.get(actor, id) };
          return;
        } else if (event.phase === 'provisioning_failed') {
          yield { kind: 'error', error: event.message, monitorId: id };
          return;
        }
      }
    } finally {
      await events.return?.();
    }
  }

  private async insert(monitor: MonitorRecord): Promise<MonitorView> {
    await this.deps.orm.em.fork().transactional(async (em) => {
      await monitorStore.insert(em, monitor);
      await this.deps.queue.enqueue([{ id: monitor.id, kind: MONITOR_PROVISION_JOB, teamId: monitor.teamId }], em);
    });
    this.deps.work?.notify();
    return monitorView(monitor, 0);
  }

  async get(actor: Actor, id: string): Promise<MonitorView> {
    const em = this.deps.orm.em.fork();
    const monitor = await this.find(em, actor, id);
    return this.view(em, monitor);
  }

  async list(
    actor: Actor,
    query: { cursor?: number; limit?: number },
  ): Promise<{ monitors: MonitorView[]; total: number; nextCursor: number | null }> {
    const em = this.deps.orm.em.fork();
    const offset = query.cursor ?? 0;
    const { rows, total } = await monitorStore.list(
      em,
      actor.teamId,
      offset,
      query.limit ?? MONITOR_LIMITS.listPage.default,
    );
    const counts = await monitorStore.eventCounts(
      em,
      rows.map((r) => r.id),
    );
    return {
      monitors: rows.map((r) => monitorView(r, counts.get(r.id) ?? 0)),
      total,
      nextCursor: offset + rows.length < total ? offset + rows.length : null,
    };
  }

  async update(actor: Actor, id: string, command: UpdateMonitorCommand): Promise<MonitorView> {
    const now = new Date();
    const schedule =
      command.frequency !== undefined ? await resolveFrequency(command.frequency, this.deps.minIntervalMs, now) : null;
    const channels = { webhookUrls: this.deps.webhookUrls, smtpConfigured: this.deps.smtpConfigured };
    const notification = command.notification ? await resolveNotification(command.notification, channels) : null;
    const webhook = command.webhook !== undefined ? await resolveWebhook(command.webhook, this.deps.webhookUrls) : null;
    const em = this.deps.orm.em.fork();
    await em.transactional(async (tx) => {
      const monitor = await this.find(tx, actor, id, true);
      const fields: Record<string, unknown> = {};
      if (schedule) {
        fields.frequency = schedule.frequency;
        fields.cron = schedule.cron;
      }
      if (notification) {
        fields.notification = notification;
        fields.channel_state = {}; // a changed notification starts with a clean record
      }
      if (webhook) fields.webhook = webhook;
      if (command.metadata) fields.metadata = mergeMetadata(monitor.metadata, command.metadata);
      const next = {
        ...monitor,
        ...(schedule ?? {}),
        ...(notification ? { notification } : {}),
        ...(webhook ? { webhook } : {}),
      };
      fields.mermaid_diagram = monitorMermaidDiagram({
        tracked: next.tracked,
        frequency: next.frequency,
        detection: checkDetection(next.detection ?? undefined),
        output_schema: next.outputSchema ?? undefined,
        notification: next.notification,
        webhook: next.webhook,
      });
      if (schedule && monitor.status === 'active') await this.reschedule(tx, monitor, schedule.cron, now, fields);
      await monitorStore.update(tx, monitor.id, fields);
    });
    return this.get(actor, id);
  }

  async pause(actor: Actor, id: string): Promise<MonitorView> {
    await this.deps.orm.em.fork().transactional(async (tx) => {
      const monitor = await this.find(tx, actor, id, true);
      if (monitor.status !== 'active') throw conflict(monitor, 'pause', 'only an active monitor can be paused');
      await monitorStore.update(tx, id, { status: 'paused', next_run_at: null });
    });
    return this.get(actor, id);
  }

  async resume(actor: Actor, id: string): Promise<MonitorView> {
    await this.deps.orm.em.fork().transactional(async (tx) => {
      const monitor = await this.find(tx, actor, id, true);
      if (monitor.status !== 'paused') throw conflict(monitor, 'resume', 'only a paused monitor can be resumed');
      const fields: Record<string, unknown> = { status: 'active' };
      await this.reschedule(tx, monitor, monitor.cron, new Date(), fields);
      await monitorStore.update(tx, id, fields);
    });
    this.deps.work?.notify();
    return this.get(actor, id);
  }

  async delete(actor: Actor, id: string): Promise<MonitorView> {
    const em = this.deps.orm.em.fork();
    const monitor = await em.transactional(async (tx) => {
      const found = await this.find(tx, actor, id, true);
      await exec(
        tx,
        `update monitors set status = 'deleted', next_run_at = null, deleted_at = now(), updated_at = now() where id = ?`,
        [id],
      );
      return found;
    });
    const view = await this.view(em, { ...monitor, status: 'deleted', nextRunAt: null, updatedAt: new Date() });
    return view;
  }

  /** Queues a run now (one at a time per monitor: it waits for a run in progress). */
  async runNow(actor: Actor, id: string): Promise<{ runId: string; monitorId: string }> {
    const runId = newRunId();
    await this.deps.orm.em.fork().transactional(async (tx) => {
      const monitor = await this.find(tx, actor, id, true);
      if (monitor.status === 'provisioning' || monitor.status === 'failed') {
        throw conflict(monitor, 'run', `a ${monitor.status} monitor cannot run; wait until it is active`);
      }
      await monitorStore.queueRun(tx, { id: runId, monitorId: id, teamId: actor.teamId });
      await this.deps.queue.enqueue([manualRunJob(monitor, runId)], tx);
    });
    this.deps.work?.notify();
    return { runId, monitorId: id };
  }

  async getRun(actor: Actor, id: string, runId: string): Promise<MonitorRunView> {
    const em = this.deps.orm.em.fork();
    await this.find(em, actor, id);
    const [row] = await exec(em, `select * from monitor_runs where id = ? and monitor_id = ?`, [runId, id]);
    if (!row) throw errors.notFound('run', runId);
    const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
    return {
      id: row.id as string,
      monitorId: id,
      trigger: row.trigger as string,
      status: row.status as string,
      scheduledFor: iso(row.scheduled_for),
      changeDetected: row.change_detected as boolean,
      summary: (row.summary as string | null) ?? null,
      error: (row.error as string | null) ?? null,
      pages: (row.pages as unknown[]) ?? [],
      created: epochSeconds(new Date(row.created_at as string)),
      startedAt: iso(row.started_at),
      finishedAt: iso(row.finished_at),
    };
  }

  async events(
    actor: Actor,
    id: string,
    query: { limit?: number; cursor?: string; countOnly?: boolean },
  ): Promise<EventsPage> {
    const em = this.deps.orm.em.fork();
    await this.find(em, actor, id);
    const [count] = await exec<{ n: string }>(em, `select count(*) as n from monitor_events where monitor_id = ?`, [
      id,
    ]);
    const totalCount = Number(count?.n ?? 0);
    if (query.countOnly) return { data: [], hasMore: false, nextCursor: null, totalCount };
    const limit = query.limit ?? MONITOR_LIMITS.eventsPage.default;
    const after = query.cursor ? readCursor(query.cursor) : null;
    const rows = await exec(
      em,
      `select * from monitor_events where monitor_id = ?${
        after
          ? ' and (created_at, id) < (select created_at, id from monitor_events where id = ? and monitor_id = ?)'
          : ''
      } order by created_at desc, id desc limit ?`,
      after ? [id, after, id, limit + 1] : [id, limit + 1],
    );
    const page = rows.slice(0, limit);
    const data = await Promise.all(page.map((r) => this.eventView(r)));
    const last = page[page.length - 1];
    return {
      data,
      hasMore: rows.length > limit,
      nextCursor: rows.length > limit && last ? writeCursor(last.id as string) : null,
      totalCount,
    };
  }

  /** Progress of one monitor from now on (404 for another team's): its phases, steps and events. */
  async progress(actor: Actor, id: string, signal?: AbortSignal): Promise<AsyncIterableIterator<ProgressItem>> {
    const events = this.deps.pubsub.subscribe(resourceChannel('monitor', id), signal);
    try {
      await this.find(this.deps.orm.em.fork(), actor, id);
    } catch (err) {
      await events.return?.();
      throw err;
    }
    return events as AsyncIterableIterator<ProgressItem>;
  }

  private async eventView(r: Record<string, unknown>): Promise<MonitorEventView> {
    const snapshotKey = r.snapshot_key as string | null;
    const diffKey = r.diff_key as string | null;
    return {
      id: r.id as string,
      monitorId: r.monitor_id as string,
      runId: r.run_id as string,
      type: r.type as string,
      created: epochSeconds(new Date(r.created_at as string)),
      changed: r.changed as boolean,
      summary: r.summary as string,
      snapshotUrl: snapshotKey ? await this.deps.notifier.signed(snapshotKey) : null,
      diffUrl: diffKey ? await this.deps.notifier.signed(diffKey) : null,
      data: r.data ?? null,
      dataChanges: (r.data_changes as unknown[] | null) ?? null,
    };
  }

  /** The next due time from `now` and its job, for an active monitor whose schedule (re)starts. */
  private async reschedule(
    em: EntityManager,
    monitor: MonitorRecord,
    cron: string,
    now: Date,
    fields: Record<string, unknown>,
  ): Promise<void> {
    const due = nextDue(cron, now);
    fields.next_run_at = due;
    if (due) await this.deps.queue.enqueue([scheduledRunJob(monitor, due)], em);
  }

  private async find(em: EntityManager, actor: Actor, id: string, lock = false): Promise<MonitorRecord> {
    const monitor = await monitorStore.find(em, actor.teamId, id, lock);
    if (!monitor) throw errors.notFound('monitor', id);
    return monitor;
  }

  private async view(em: EntityManager, monitor: MonitorRecord): Promise<MonitorView> {
    const counts = await monitorStore.eventCounts(em, [monitor.id]);
    return monitorView(monitor, counts.get(monitor.id) ?? 0);
  }
}

/** Metadata update: keys merge; a key set to "" is deleted. */
export function mergeMetadata(current: Record<string, string>, patch: Record<string, string>): Record<string, string> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > METADATA_LIMITS.pairs) {
    throw fieldError('metadata', `would hold ${Object.keys(merged).length} pairs; at most ${METADATA_LIMITS.pairs}`);
  }
  return merged;
}

function conflict(monitor: MonitorRecord, action: string, why: string): AppError {
  return new AppError(
    'conflict',
    `monitor_not_${action === 'resume' ? 'paused' : 'active'}`,
    `monitor ${monitor.id} is ${monitor.status}: ${why}`,
  );
}

function writeCursor(id: string): string {
  return Buffer.from(id).toString('base64url');
}

function readCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (/^event_[a-z0-9]{1,60}$/.test(id)) return id;
  throw fieldError('cursor', 'is not a cursor this endpoint returned (use next_cursor)');
}
