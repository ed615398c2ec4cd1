import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';
import { MetadataSchema } from '../shared/metadata.schema.js';

/** The events a monitor reports, and that notification channels subscribe to. */
export const MONITOR_EVENT_TYPES = ['changed', 'first_snapshot', 'run_failed'] as const;
export type MonitorEventType = (typeof MONITOR_EVENT_TYPES)[number];

export const MONITOR_LIMITS = {
  queryLength: 4000,
  channels: 10,
  targetLength: 2048,
  frequencyLength: 300,
  eventsPage: { min: 1, max: 100, default: 20 },
  listPage: { min: 1, max: 100, default: 50 },
} as const;

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

const EventName = z.enum(MONITOR_EVENT_TYPES, {
  error: (issue) => `must be one of ${MONITOR_EVENT_TYPES.join(', ')} (got ${JSON.stringify(issue.input)})`,
});
const EventList = z.array(EventName, { error: (i) => `must be an array of event names (got ${typeName(i.input)})` });

const StringList = z.array(z.string({ error: (i) => `must be a string (got ${typeName(i.input)})` }).max(2000), {
  error: (i) => `must be an array of strings (got ${typeName(i.input)})`,
});

export const SourcePolicyInput = z
  .strictObject({
    include_urls: StringList.optional(),
    exclude_urls: StringList.optional(),
    include_domains: StringList.optional(),
    exclude_domains: StringList.optional(),
  })
  .describe('URL globs (the semantics of crawls and maps) and domains a monitor may or may not track.');

export const ChannelInput = z.strictObject({
  target: z
    .string({ error: (i) => `must be a string (got ${typeName(i.input)})` })
    .min(1, { error: 'must not be empty' })
    .max(MONITOR_LIMITS.targetLength)
    .describe('A webhook URL, a Slack incoming-webhook URL, or an email address (`mailto:` optional).'),
  events: EventList.optional().describe('Events sent to this channel (default: `notification.events`).'),
  type: z
    .enum(['webhook', 'slack', 'email'], { error: 'must be webhook, slack or email' })
    .optional()
    .describe('Extension: how to deliver; default from the target (hooks.slack.com: slack; an address: email).'),
});
export type ChannelCommand = z.output<typeof ChannelInput>;

export const NotificationInput = z.strictObject({
  events: EventList.optional().describe('Events notified (default: changed and run_failed).'),
  channels: z
    .array(ChannelInput, { error: (i) => `must be an array of channels (got ${typeName(i.input)})` })
    .max(MONITOR_LIMITS.channels, { error: `at most ${MONITOR_LIMITS.channels} channels` })
    .optional(),
});
export type NotificationCommand = z.output<typeof NotificationInput>;

const WebhookInput = z
  .union([z.string().min(1).max(MONITOR_LIMITS.targetLength), z.strictObject({ url: z.string().min(1).max(2048) })], {
    error: 'must be {url} or a URL string',
  })
  .describe('A webhook receiving the monitor’s events in the webhook envelope (`{url}`, or the URL itself).');

const JsonObject = (what: string) =>
  z.record(z.string(), z.unknown(), { error: (i) => `must be ${what} (got ${typeName(i.input)})` });

const Frequency = z
  .string({ error: (i) => `must be a string such as "every hour" (got ${typeName(i.input)})` })
  .max(MONITOR_LIMITS.frequencyLength, { error: `is longer than ${MONITOR_LIMITS.frequencyLength} characters` })
  .describe('Natural language ("every hour", "every weekday at 9am"), UTC; at least 10 minutes apart.');

/** POST /v1/monitors. */
export const CreateMonitorInput = z
  .strictObject({
    query: z
      .string({
        error: (i) =>
          i.input === undefined ? 'is required (what to monitor)' : `must be a string (got ${typeName(i.input)})`,
      })
      .refine((q) => q.trim() !== '', { error: 'must not be empty' })
      .refine((q) => q.length <= MONITOR_LIMITS.queryLength, {
        error: `is longer than ${MONITOR_LIMITS.queryLength} characters`,
      })
      .describe('What to monitor, in natural language; URLs and domains it names are tracked.'),
    source_policy: SourcePolicyInput.optional(),
    frequency: Frequency.optional(),
    notification: NotificationInput.optional(),
    webhook: WebhookInput.optional(),
    metadata: MetadataSchema.optional(),
    output_schema: JsonObject('a JSON Schema object')
      .optional()
      .describe('JSON Schema of data extracted from each page and diffed field by field.'),
    detection: JsonObject('an object of detection settings')
      .optional()
      .describe(
        'Extension: noise control (include/ignore selectors, noise_filters, ignore_text, trigger_text, text_must_not_be_present, processors); see docs/monitors.md.',
      ),
  })
  .meta({ id: 'CreateMonitorRequest' });
export type CreateMonitorCommand = z.output<typeof CreateMonitorInput>;

/** POST /v1/monitors/{id}: what may change; metadata merges (a key set to "" is deleted). */
export const UpdateMonitorInput = z
  .strictObject({
    frequency: Frequency.optional(),
    notification: NotificationInput.optional(),
    webhook: WebhookInput.optional(),
    metadata: MetadataSchema.optional(),
  })
  .meta({ id: 'UpdateMonitorRequest' });
export type UpdateMonitorCommand = z.output<typeof UpdateMonitorInput>;

export const CreateMonitorQuery = z.object({
  stream: z
    .enum(['1', 'true', '0', 'false'], { error: 'must be 1 or true (or 0/false)' })
    .optional()
    .describe('`1` or `true`: answer with an event stream (phase, reasoning_token, complete, error).'),
});

export const MonitorIdParams = z.object({ monitor_id: resourceId('monitor') });
export const MonitorRunParams = z.object({ monitor_id: resourceId('monitor'), run_id: resourceId('run') });

export const MonitorEventsQuery = z.object({
  limit: queryInt(MONITOR_LIMITS.eventsPage.min, MONITOR_LIMITS.eventsPage.max).optional(),
  cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page.'),
  count_only: z.enum(['1', 'true', '0', 'false']).optional().describe('Only `total_count`.'),
});

export const ListMonitorsQuery = z.object({
  limit: queryInt(MONITOR_LIMITS.listPage.min, MONITOR_LIMITS.listPage.max).optional(),
  cursor: queryInt(0, 1_000_000_000).optional(),
});
