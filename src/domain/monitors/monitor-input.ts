import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { AppError } from '../../errors.js';
import { resolveSchema } from '../../extraction/index.js';
import { compileJsonSchema } from '../../models/json-schema.js';
import {
  assertMinInterval,
  convertScheduleText,
  parseCronExpression,
  requireNextRun,
} from '../schedules/cron/index.js';
import type { WebhookUrlPolicy } from '../webhooks/webhook-url.js';
import { resolveDetectionOptions, type DetectionOptions } from './detection/index.js';
import { fieldError } from './field-error.js';
import type { ChannelType, StoredChannel, StoredNotification } from './monitor-record.js';
import {
  MONITOR_EVENT_TYPES,
  type ChannelCommand,
  type MonitorEventType,
  type NotificationCommand,
} from './monitor.schema.js';

/** Events notified when neither the notification nor the channel names any. */
export const DEFAULT_EVENTS: MonitorEventType[] = ['changed', 'run_failed'];
export const DEFAULT_FREQUENCY = 'every hour';

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]{2,}$/;

export interface ResolvedFrequency {
  frequency: string;
  /** EventBridge cron (6 fields), read in UTC. */
  cron: string;
  description: string;
}

/**
 * `frequency` → cron with the schedules parser (no model: a schedule must mean exactly what
 * was written), refused when two runs can come closer than `minIntervalMs` or never run.
 */
export async function resolveFrequency(
  text: string | undefined,
  minIntervalMs: number,
  now: Date,
): Promise<ResolvedFrequency> {
  const frequency = (text ?? DEFAULT_FREQUENCY).trim();
  const converted = await convertScheduleText(frequency, { field: 'frequency' });
  const cron = parseCronExpression(converted.cronExpression, 'frequency');
  assertMinInterval(cron, { after: now, minimumMs: minIntervalMs }, 'frequency');
  requireNextRun(cron, { timezone: 'UTC', after: now }, 'frequency');
  return { frequency, cron: cron.expression, description: converted.description };
}

/** Who checks channel targets: the webhook URL policy, and whether email can be sent here. */
export interface ChannelPolicy {
  webhookUrls: WebhookUrlPolicy;
  smtpConfigured: boolean;
}

/** The notification as stored: events resolved, each target checked and normalised by its type. */
export async function resolveNotification(
  input: NotificationCommand | undefined,
  policy: ChannelPolicy,
): Promise<StoredNotification> {
  const events = unique(input?.events ?? DEFAULT_EVENTS);
  const channels: StoredChannel[] = [];
  for (const [i, channel] of (input?.channels ?? []).entries()) {
    channels.push(await resolveChannel(channel, events, `notification.channels[${i}]`, policy));
  }
  return { events, channels };
}

async function resolveChannel(
  channel: ChannelCommand,
  defaults: MonitorEventType[],
  field: string,
  policy: ChannelPolicy,
): Promise<StoredChannel> {
  const raw = channel.target.trim();
  const type: ChannelType = channel.type ?? inferType(raw);
  const events = unique(channel.events ?? defaults);
  if (type === 'email') {
    const address = raw.replace(/^mailto:/i, '');
    if (address.length > 254 || !EMAIL.test(address)) {
      throw fieldError(`${field}.target`, `${JSON.stringify(raw.slice(0, 100))} is not an email address`);
    }
    if (!policy.smtpConfigured) {
      throw fieldError(`${field}.target`, 'email channels need an SMTP server (MONITOR_SMTP_URL) on this service');
    }
    return { target: address.toLowerCase(), type, events };
  }
  return { target: await policy.webhookUrls.validate(raw, `${field}.target`), type, events };
}

function inferType(target: string): ChannelType {
  if (/^mailto:/i.test(target) || (!/^[a-z][a-z0-9+.-]*:\/\//i.test(target) && target.includes('@'))) return 'email';
  try {
    if (new URL(target).hostname === 'hooks.slack.com') return 'slack';
  } catch {
    // not a URL: the webhook policy names the problem
  }
  return 'webhook';
}

/** `webhook` as `{url}` or the URL itself → `{url}`, checked like every webhook URL. */
export async function resolveWebhook(
  input: string | { url: string } | undefined,
  webhookUrls: WebhookUrlPolicy,
): Promise<{ url: string } | null> {
  if (input === undefined) return null;
  const raw = typeof input === 'string' ? input : input.url;
  return { url: await webhookUrls.validate(raw.trim(), typeof input === 'string' ? 'webhook' : 'webhook.url') };
}

/** `output_schema`: a JSON Schema object the extractor can fill (400 naming what is wrong). */
export function checkOutputSchema(schema: Record<string, unknown> | undefined): void {
  if (schema === undefined) return;
  compileJsonSchema(schema, 'output_schema');
  resolveSchema(schema, 'output_schema');
}

export function checkDetection(detection: Record<string, unknown> | undefined): DetectionOptions {
  return resolveDetectionOptions(detection ?? {}, 'detection');
}

/**
 * Addresses in `source_policy` the outbound policy refuses (a private address, a denied
 * domain): a 403 naming the entry, as for any URL this service would be asked to reach.
 */
export function checkPolicyAddresses(
  policy: { include_urls?: string[]; include_domains?: string[] } | undefined,
  guard: OutboundGuard,
): void {
  const check = (url: URL, field: string) => {
    try {
      guard.checkUrl(url);
    } catch (err) {
      if (err instanceof AppError)
        throw new AppError(err.kind, err.code, `${field}: ${err.detail}`, { metadata: { field } });
      throw err;
    }
  };
  for (const [i, entry] of (policy?.include_urls ?? []).entries()) {
    if (!/^https?:\/\//i.test(entry) || entry.includes('*')) continue;
    const url = safeUrl(entry);
    if (url) check(url, `source_policy.include_urls[${i}]`);
  }
  for (const [i, entry] of (policy?.include_domains ?? []).entries()) {
    const host = entry.trim().replace(/^\*\./, '');
    const url = host && !host.includes('*') ? safeUrl(`http://${host}/`) : null;
    if (url) check(url, `source_policy.include_domains[${i}]`);
  }
}

/** A tracked URL the service may fetch: 403 when the outbound policy refuses it. */
export async function checkTrackedUrl(url: string, guard: OutboundGuard): Promise<void> {
  try {
    await guard.assertAllowed(url);
  } catch (err) {
    if (err instanceof AppError) {
      throw new AppError(err.kind, err.code, `query: ${url}: ${err.detail}`, { metadata: { field: 'query' } });
    }
    // A name that does not resolve (yet) is not refused: its runs fail and say so.
    if (typeof (err as NodeJS.ErrnoException).code !== 'string') throw err;
  }
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function unique(events: readonly MonitorEventType[]): MonitorEventType[] {
  return MONITOR_EVENT_TYPES.filter((e) => events.includes(e));
}
