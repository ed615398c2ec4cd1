import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { newId, randomBase36 } from '../../ids.js';
import type { DomainEvent } from '../../pubsub/events.js';
import type { SearchRegistry } from '../../search/search-registry.js';
import type { Actor } from '../auth/actor.js';
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
import { PROVISIONING_PHASES, type MonitorProgressEvent } from './monitor-progress.js';
import type { MonitorRecord } from './monitor-record.js';
import type { CreateMonitorCommand } from './monitor.schema.js';
import type { MonitorView } from './monitor.view.js';
import { monitorMermaidDiagram, planMonitor } from './planning/index.js';

export interface PrepareMonitorDeps {
  guard: OutboundGuard;
  search: SearchRegistry;
  webhookUrls: WebhookUrlPolicy;
  minIntervalMs: number;
  smtpConfigured: boolean;
}

/** What a creation stream carries, before the transport names it. */
export type ProvisioningItem =
  | { kind: 'phase'; phase: string; message: string }
  | { kind: 'reasoning_token'; token: string }
  | { kind: 'complete'; monitor: MonitorView }
  | { kind: 'error'; error: string; monitorId: string };

/**
 * Validates and plans a creation: the monitor as it will be stored (`provisioning`); nothing
 * is stored. Throws the 400/403 of the first problem.
 */
export async function prepareMonitor(
  deps: PrepareMonitorDeps,
  actor: Actor,
  command: CreateMonitorCommand,
  now = new Date(),
): Promise<MonitorRecord> {
  checkPolicyAddresses(command.source_policy, deps.guard);
  const plan = planMonitor(command.query, command.source_policy ?? {});
  const schedule = await resolveFrequency(command.frequency, deps.minIntervalMs, now);
  const channels = { webhookUrls: deps.webhookUrls, smtpConfigured: deps.smtpConfigured };
  const notification = await resolveNotification(command.notification, channels);
  const webhook = await resolveWebhook(command.webhook, deps.webhookUrls);
  checkOutputSchema(command.output_schema);
  const detection = checkDetection(command.detection);
  for (const url of plan.tracked.urls) await checkTrackedUrl(url, deps.guard);
  if (plan.tracked.web_query !== null && plan.tracked.urls.length === 0 && !deps.search.default()) {
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

/**
 * A monitor's provisioning as a creation stream reads it from its channel's `events`: `phase`
 * per step, `reasoning_token`s when a model plans, then `complete` with the monitor
 * (`provisioned()` reads it) or `error`. The subscription is closed when the stream ends.
 */
export async function* provisioningItems(
  monitorId: string,
  events: AsyncIterableIterator<DomainEvent>,
  provisioned: () => Promise<MonitorView>,
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
        yield { kind: 'complete', monitor: await provisioned() };
        return;
      } else if (event.phase === 'provisioning_failed') {
        yield { kind: 'error', error: event.message, monitorId };
        return;
      }
    }
  } finally {
    await events.return?.();
  }
}
