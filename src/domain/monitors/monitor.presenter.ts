import { z } from 'zod';
import type { ChannelView, MonitorEventView, MonitorRunView, MonitorView } from './monitor.view.js';

const channel = (c: ChannelView) => ({
  target: c.target,
  type: c.type,
  events: c.events,
  status: c.status,
  failures: c.failures,
  last_error: c.lastError,
});

/** The spec's Monitor resource (snake_case), with our extensions (plan_explanation, deliveries, detection). */
export function presentMonitor(m: MonitorView) {
  return {
    id: m.id,
    object: 'monitor' as const,
    status: m.status,
    query: m.query,
    tracked: { type: m.tracked.type, urls: m.tracked.urls, web_query: m.tracked.webQuery },
    plan_explanation: m.planExplanation,
    source_policy: {
      include_urls: m.sourcePolicy.includeUrls,
      exclude_urls: m.sourcePolicy.excludeUrls,
      include_domains: m.sourcePolicy.includeDomains,
      exclude_domains: m.sourcePolicy.excludeDomains,
    },
    schedule: {
      frequency: m.schedule.frequency,
      cron: m.schedule.cron,
      timezone: m.schedule.timezone,
      next_run_at: m.schedule.nextRunAt,
    },
    notification: { events: m.notification.events, channels: m.notification.channels.map(channel) },
    webhook: m.webhook,
    deliveries: m.deliveries.map(channel),
    output_schema: m.outputSchema,
    detection: m.detection,
    error_message: m.errorMessage,
    last_run: m.lastRun
      ? {
          id: m.lastRun.id,
          status: m.lastRun.status,
          change_detected: m.lastRun.changeDetected,
          ran_at: m.lastRun.ranAt,
        }
      : null,
    agent: m.agent,
    metadata: m.metadata,
    created: m.created,
    updated: m.updated,
    total_count: m.totalCount,
    mermaid_diagram: m.mermaidDiagram,
  };
}

export function presentMonitorEvent(e: MonitorEventView) {
  return {
    id: e.id,
    object: 'monitor.event' as const,
    monitor_id: e.monitorId,
    run_id: e.runId,
    type: e.type,
    created: e.created,
    changed: e.changed,
    summary: e.summary,
    snapshot_url: e.snapshotUrl,
    diff_url: e.diffUrl,
    ...(e.data !== null && e.data !== undefined ? { data: e.data } : {}),
    ...(e.dataChanges ? { data_changes: e.dataChanges } : {}),
  };
}

export function presentMonitorRun(r: MonitorRunView) {
  return {
    id: r.id,
    object: 'monitor.run' as const,
    monitor_id: r.monitorId,
    trigger: r.trigger,
    status: r.status,
    scheduled_for: r.scheduledFor,
    change_detected: r.changeDetected,
    summary: r.summary,
    error: r.error,
    pages: r.pages,
    created: r.created,
    started_at: r.startedAt,
    finished_at: r.finishedAt,
  };
}

const Channel = z.object({
  target: z.string(),
  type: z.string(),
  events: z.array(z.string()),
  status: z.string(),
  failures: z.number().int(),
  last_error: z.string().nullable(),
});

export const MonitorObject = z
  .object({
    id: z.string(),
    object: z.literal('monitor'),
    status: z.string().describe('provisioning → active ⇄ paused → deleted'),
    query: z.string(),
    tracked: z.object({ type: z.string(), urls: z.array(z.string()), web_query: z.string().nullable() }),
    plan_explanation: z.string(),
    source_policy: z.object({
      include_urls: z.array(z.string()),
      exclude_urls: z.array(z.string()),
      include_domains: z.array(z.string()),
      exclude_domains: z.array(z.string()),
    }),
    schedule: z.object({
      frequency: z.string(),
      cron: z.string(),
      timezone: z.string(),
      next_run_at: z.string().nullable(),
    }),
    notification: z.object({ events: z.array(z.string()), channels: z.array(Channel) }),
    webhook: z.object({ url: z.string() }).nullable(),
    deliveries: z.array(Channel),
    output_schema: z.record(z.string(), z.unknown()).nullable(),
    detection: z.record(z.string(), z.unknown()).nullable(),
    error_message: z.string().nullable(),
    last_run: z
      .object({ id: z.string(), status: z.string(), change_detected: z.boolean(), ran_at: z.string() })
      .nullable(),
    agent: z.object({ id: z.string() }),
    metadata: z.record(z.string(), z.string()),
    created: z.number().int(),
    updated: z.number().int(),
    total_count: z.number().int(),
    mermaid_diagram: z.string(),
  })
  .meta({ id: 'Monitor' });

export const MonitorEventObject = z
  .object({
    id: z.string(),
    object: z.literal('monitor.event'),
    monitor_id: z.string(),
    run_id: z.string(),
    type: z.string(),
    created: z.number().int(),
    changed: z.boolean(),
    summary: z.string(),
    snapshot_url: z.string().nullable(),
    diff_url: z.string().nullable(),
    data: z.unknown().optional(),
    data_changes: z.array(z.unknown()).optional(),
  })
  .meta({ id: 'MonitorEvent' });

export const MonitorRunObject = z
  .object({
    id: z.string(),
    object: z.literal('monitor.run'),
    monitor_id: z.string(),
    trigger: z.string(),
    status: z.string(),
    scheduled_for: z.string().nullable(),
    change_detected: z.boolean(),
    summary: z.string().nullable(),
    error: z.string().nullable(),
    pages: z.array(z.unknown()),
    created: z.number().int(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .meta({ id: 'MonitorRun' });
