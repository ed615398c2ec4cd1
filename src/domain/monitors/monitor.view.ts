import { epochSeconds } from '../shared/time.js';
import { channelKey, deliveryChannels, type MonitorRecord } from './monitor-record.js';

/** A notification channel as shown: where, which events, and how it has fared. */
export interface ChannelView {
  target: string;
  type: string;
  events: string[];
  /** `ok`; `failing` (its last notification failed after retries); `disabled` (failed too often: no longer used until the channel is updated). */
  status: 'ok' | 'failing' | 'disabled';
  failures: number;
  lastError: string | null;
}

/** A monitor, as both transports show it (REST in snake_case through the presenter). */
export interface MonitorView {
  id: string;
  status: string;
  query: string;
  tracked: { type: string; urls: string[]; webQuery: string | null };
  planExplanation: string;
  sourcePolicy: { includeUrls: string[]; excludeUrls: string[]; includeDomains: string[]; excludeDomains: string[] };
  schedule: { frequency: string; cron: string; timezone: 'UTC'; nextRunAt: string | null };
  notification: { events: string[]; channels: ChannelView[] };
  webhook: { url: string } | null;
  /** Every channel, the webhook included, with its health. */
  deliveries: ChannelView[];
  outputSchema: Record<string, unknown> | null;
  detection: Record<string, unknown> | null;
  errorMessage: string | null;
  lastRun: { id: string; status: string; changeDetected: boolean; ranAt: string } | null;
  agent: { id: string };
  metadata: Record<string, string>;
  created: number;
  updated: number;
  /** Events the monitor has recorded. */
  totalCount: number;
  mermaidDiagram: string;
}

export function monitorView(monitor: MonitorRecord, totalCount: number): MonitorView {
  const channel = (c: { target: string; type: string; events: string[] }): ChannelView => {
    const health = monitor.channelState[channelKey(c as never)];
    const status = !health || health.failures === 0 ? 'ok' : health.disabled ? 'disabled' : 'failing';
    return { ...c, status, failures: health?.failures ?? 0, lastError: health?.lastError ?? null };
  };
  return {
    id: monitor.id,
    status: monitor.status,
    query: monitor.query,
    tracked: { type: monitor.tracked.type, urls: monitor.tracked.urls, webQuery: monitor.tracked.web_query },
    planExplanation: monitor.planExplanation,
    sourcePolicy: {
      includeUrls: monitor.sourcePolicy.include_urls,
      excludeUrls: monitor.sourcePolicy.exclude_urls,
      includeDomains: monitor.sourcePolicy.include_domains,
      excludeDomains: monitor.sourcePolicy.exclude_domains,
    },
    schedule: {
      frequency: monitor.frequency,
      cron: monitor.cron,
      timezone: 'UTC',
      nextRunAt: monitor.status === 'active' && monitor.nextRunAt ? monitor.nextRunAt.toISOString() : null,
    },
    notification: { events: monitor.notification.events, channels: monitor.notification.channels.map(channel) },
    webhook: monitor.webhook,
    deliveries: deliveryChannels(monitor).map(channel),
    outputSchema: monitor.outputSchema,
    detection: monitor.detection,
    errorMessage: monitor.errorMessage,
    lastRun: monitor.lastRun
      ? {
          id: monitor.lastRun.id,
          status: monitor.lastRun.status,
          changeDetected: monitor.lastRun.change_detected,
          ranAt: monitor.lastRun.ran_at,
        }
      : null,
    agent: { id: monitor.agentId },
    metadata: monitor.metadata,
    created: epochSeconds(monitor.createdAt),
    updated: epochSeconds(monitor.updatedAt),
    totalCount,
    mermaidDiagram: monitor.mermaidDiagram,
  };
}

/** One monitor event (`GET /v1/monitors/{id}/events`). */
export interface MonitorEventView {
  id: string;
  monitorId: string;
  runId: string;
  type: string;
  created: number;
  changed: boolean;
  summary: string;
  snapshotUrl: string | null;
  diffUrl: string | null;
  data: unknown;
  dataChanges: unknown[] | null;
}

/** One run (`GET /v1/monitors/{id}/runs/{run_id}`). */
export interface MonitorRunView {
  id: string;
  monitorId: string;
  trigger: string;
  status: string;
  scheduledFor: string | null;
  changeDetected: boolean;
  summary: string | null;
  error: string | null;
  pages: unknown[];
  created: number;
  startedAt: string | null;
  finishedAt: string | null;
}
