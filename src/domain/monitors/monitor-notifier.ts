import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import { epochSeconds } from '../shared/time.js';
import type { WebhookOutbox } from '../webhooks/webhook-outbox.js';
import { channelKey, deliveryChannels, type MonitorRecord, type StoredChannel } from './monitor-record.js';
import type { FoundEvent } from './monitor-events.js';

export const MONITOR_NOTIFY_JOB = 'monitor.notify';

/** Hosted snapshots and diffs stay readable this long through their signed URLs (the spec's hosted content lifetime). */
export const HOSTED_URL_TTL_S = 7 * 86_400;

/** What a `monitor.notify` job delivers: one event to one Slack or email channel. */
export interface NotifyPayload {
  monitorId: string;
  eventId: string;
  channel: StoredChannel;
  /** The event as webhooks carry it (`data` of the envelope). */
  data: Record<string, unknown>;
}

/**
 * Sends a run's events to the monitor's channels, inside the transaction that records the run:
 * webhooks through the webhook outbox (the spec's envelope, retries, the same event id,
 * signatures when the team turned them on), Slack and email as `monitor.notify` jobs. A channel
 * that failed `maxFailures` notifications in a row (each after its retries) is skipped and
 * reported on the monitor (`deliveries[].status: disabled`) until the notification is updated.
 */
export class MonitorNotifier {
  constructor(
    private readonly deps: { queue: JobQueue; outbox: WebhookOutbox; blobs: BlobStore; maxFailures: number },
  ) {}

  /** The event as webhooks, Slack and email show it. */
  async eventData(
    monitor: MonitorRecord,
    runId: string,
    event: FoundEvent,
    created: Date,
  ): Promise<Record<string, unknown>> {
    return {
      id: event.id,
      object: 'monitor.event',
      type: event.type,
      monitor_id: monitor.id,
      run_id: runId,
      created: epochSeconds(created),
      changed: event.changed,
      summary: event.summary,
      snapshot_url: event.snapshotKey ? await this.signed(event.snapshotKey) : null,
      diff_url: event.diffKey ? await this.signed(event.diffKey) : null,
      ...(event.data !== null && event.data !== undefined ? { data: event.data } : {}),
      ...(event.dataChanges ? { data_changes: event.dataChanges } : {}),
      monitor: { id: monitor.id, query: monitor.query, metadata: monitor.metadata },
    };
  }

  signed(key: string): Promise<string> {
    return this.deps.blobs.signedGetUrl(key, { expiresInSeconds: HOSTED_URL_TTL_S });
  }

  async dispatch(
    em: EntityManager,
    monitor: MonitorRecord,
    runId: string,
    events: readonly FoundEvent[],
    created: Date,
  ): Promise<void> {
    if (events.length === 0) return;
    const channels = deliveryChannels(monitor);
    const health = await this.webhookHealth(em, monitor, channels);
    for (const event of events) {
      const targets = channels.filter((c) => c.events.includes(event.type) && !health.has(channelKey(c)));
      if (targets.length === 0) continue;
      const data = await this.eventData(monitor, runId, event, created);
      for (const channel of targets) {
        const tag = channelTag(channel);
        if (channel.type === 'webhook') {
          await this.deps.outbox.enqueue(em, {
            teamId: monitor.teamId,
            type: `monitor.${event.type}`,
            resourceId: `${monitor.id}/${tag}/${event.id}`,
            url: channel.target,
            data,
          });
          continue;
        }
        const payload: NotifyPayload = { monitorId: monitor.id, eventId: event.id, channel, data };
        await this.deps.queue.enqueue(
          [{ id: `${event.id}/${tag}`, kind: MONITOR_NOTIFY_JOB, teamId: monitor.teamId, payload: { ...payload } }],
          em,
        );
      }
    }
  }

  /**
   * Webhook channels' health from their recent deliveries in the outbox: consecutive failed
   * events are recorded on the monitor; the keys of channels that failed too often are returned.
   */
  private async webhookHealth(
    em: EntityManager,
    monitor: MonitorRecord,
    channels: StoredChannel[],
  ): Promise<Set<string>> {
    const disabled = new Set<string>();
    for (const channel of channels) {
      const key = channelKey(channel);
      if (monitor.channelState[key]?.disabled) disabled.add(key);
      if (channel.type !== 'webhook') continue;
      const rows = await exec<{ status: string }>(
        em,
        `select status from webhook_events where resource_id like ? and status in ('delivered', 'failed')
         order by created_at desc limit ?`,
        [`${monitor.id}/${channelTag(channel)}/%`, this.deps.maxFailures],
      );
      const failures = rows.findIndex((r) => r.status !== 'failed');
      const streak = failures === -1 ? rows.length : failures;
      const before = monitor.channelState[key]?.failures ?? 0;
      if (streak === before) continue;
      const off = streak >= this.deps.maxFailures;
      if (off) disabled.add(key);
      await recordChannelHealth(
        em,
        monitor.id,
        key,
        streak,
        streak > 0 ? 'webhook deliveries failed after every retry' : null,
        off,
      );
    }
    return disabled;
  }
}

/** Stores a channel's streak of failed notifications on its monitor. */
export async function recordChannelHealth(
  em: EntityManager,
  monitorId: string,
  key: string,
  failures: number,
  lastError: string | null,
  disabled: boolean,
): Promise<void> {
  await exec(
    em,
    `update monitors set channel_state = channel_state || jsonb_build_object(?::text, ?::jsonb) where id = ?`,
    [key, JSON.stringify({ failures, lastError, disabled }), monitorId],
  );
}

/** A short stable tag of a channel for ids (targets are long and may hold secrets). */
const channelTag = (channel: StoredChannel) =>
  createHash('sha256').update(channelKey(channel)).digest('hex').slice(0, 12);
