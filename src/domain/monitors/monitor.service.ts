import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { AppError, errors } from '../../errors.js';
import { resourceChannel } from '../../pubsub/events.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { WorkSignal } from '../../workers/work-signal.js';
import type { Actor } from '../auth/actor.js';
import { METADATA_LIMITS } from '../shared/metadata.schema.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-url.js';
import { fieldError } from './field-error.js';
import { monitorHistory, type EventsPage } from './monitor-history.js';
import { checkDetection, resolveFrequency, resolveNotification, resolveWebhook } from './monitor-input.js';
import type { MonitorNotifier } from './monitor-notifier.js';
import type { MonitorEventPublished, MonitorProgressEvent } from './monitor-progress.js';
import { prepareMonitor, provisioningItems, type ProvisioningItem } from './monitor-provisioning.js';
import type { MonitorRecord } from './monitor-record.js';
import { MONITOR_PROVISION_JOB, manualRunJob, newRunId, nextDue, scheduledRunJob } from './monitor-schedule.js';
import { monitorStore } from './monitor-store.js';
import { MONITOR_LIMITS, type CreateMonitorCommand, type UpdateMonitorCommand } from './monitor.schema.js';
import { monitorView, type MonitorRunView, type MonitorView } from './monitor.view.js';
import { monitorMermaidDiagram } from './planning/index.js';

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

/** What a monitor's progress stream carries. */
export type ProgressItem = MonitorProgressEvent | MonitorEventPublished;

/**
 * Monitors: created at once from a natural-language query (planned, checked, stored with their
 * provisioning job in one transaction), provisioned and run by jobs, changed, paused, resumed
 * and deleted here. Nothing is stored or queued for a request that fails validation.
 */
export class MonitorService {
  constructor(private readonly deps: MonitorServiceDeps) {}

  /** Stores a prepared monitor and queues its provisioning (202 `provisioning`). */
  async create(actor: Actor, command: CreateMonitorCommand): Promise<MonitorView> {
    return this.insert(await prepareMonitor(this.deps, actor, command));
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
    const monitor = await prepareMonitor(this.deps, actor, command);
    // Subscribed before the job exists: no phase can be published before we listen.
    const events = this.deps.pubsub.subscribe(resourceChannel('monitor', monitor.id), signal);
    try {
      await this.insert(monitor);
    } catch (err) {
      await events.return?.();
      throw err;
    }
    return provisioningItems(monitor.id, events, () => this.get(actor, monitor.id));
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
    return monitorHistory.run(em, id, runId);
  }

  /** A page of the monitor's events, newest first (`countOnly`: just how many there are). */
  async events(
    actor: Actor,
    id: string,
    query: { limit?: number; cursor?: string; countOnly?: boolean },
  ): Promise<EventsPage> {
    const em = this.deps.orm.em.fork();
    await this.find(em, actor, id);
    return monitorHistory.events(em, id, query, this.deps.notifier);
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
