import type { TrackedSources } from './planning/index.js';
import type { SourcePolicy } from './planning/index.js';
import type { MonitorEventType } from './monitor.schema.js';

export type MonitorStatus = 'provisioning' | 'active' | 'paused' | 'deleted' | 'failed';
export type ChannelType = 'webhook' | 'slack' | 'email';

/** A notification channel as stored: its target normalised, its events resolved. */
export interface StoredChannel {
  target: string;
  type: ChannelType;
  events: MonitorEventType[];
}

export interface StoredNotification {
  events: MonitorEventType[];
  channels: StoredChannel[];
}

/** How a channel has fared, by its key (`channelKey`). */
export interface ChannelHealth {
  failures: number;
  lastError: string | null;
  disabled: boolean;
}

export interface LastRun {
  id: string;
  status: 'completed' | 'failed';
  change_detected: boolean;
  ran_at: string;
}

/** A monitor row as the module reads it. */
export interface MonitorRecord {
  id: string;
  teamId: string;
  status: MonitorStatus;
  query: string;
  tracked: TrackedSources;
  planExplanation: string;
  sourcePolicy: SourcePolicy;
  frequency: string;
  cron: string;
  nextRunAt: Date | null;
  notification: StoredNotification;
  webhook: { url: string } | null;
  outputSchema: Record<string, unknown> | null;
  detection: Record<string, unknown> | null;
  metadata: Record<string, string>;
  channelState: Record<string, ChannelHealth>;
  errorMessage: string | null;
  lastRun: LastRun | null;
  agentId: string;
  mermaidDiagram: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The channels a monitor delivers to: its notification channels, then its `webhook` (every notified event). */
export function deliveryChannels(monitor: Pick<MonitorRecord, 'notification' | 'webhook'>): StoredChannel[] {
  const channels = [...monitor.notification.channels];
  if (monitor.webhook)
    channels.push({ target: monitor.webhook.url, type: 'webhook', events: monitor.notification.events });
  return channels;
}

/** A channel's key in `channel_state`: its type and target. */
export const channelKey = (channel: Pick<StoredChannel, 'type' | 'target'>) => `${channel.type}:${channel.target}`;

const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));
const json = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export function toMonitorRecord(row: Record<string, unknown>): MonitorRecord {
  return {
    id: row.id as string,
    teamId: row.team_id as string,
    status: row.status as MonitorStatus,
    query: row.query as string,
    tracked: json(row.tracked),
    planExplanation: (row.plan_explanation as string) ?? '',
    sourcePolicy: json(row.source_policy),
    frequency: row.frequency as string,
    cron: row.cron as string,
    nextRunAt: date(row.next_run_at),
    notification: json(row.notification),
    webhook: json(row.webhook) ?? null,
    outputSchema: json(row.output_schema) ?? null,
    detection: json(row.detection) ?? null,
    metadata: json(row.metadata) ?? {},
    channelState: json(row.channel_state) ?? {},
    errorMessage: (row.error_message as string | null) ?? null,
    lastRun: json(row.last_run) ?? null,
    agentId: row.agent_id as string,
    mermaidDiagram: row.mermaid_diagram as string,
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}
