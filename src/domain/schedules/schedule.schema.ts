import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';

export const SCHEDULE_LIMITS = {
  endpointLength: 2048,
  textLength: 256,
  runsPage: { min: 1, max: 100, default: 20 },
  /** Schedules one GET /v1/schedules returns at most (newest first). */
  list: 1000,
  /** Due times a preview lists. */
  preview: { max: 100, default: 10 },
} as const;

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const text = (what: string, max: number) =>
  z
    .string({
      error: (issue) =>
        issue.input === undefined
          ? `is required (${what})`
          : `must be a string (${what}; got ${typeName(issue.input)})`,
    })
    .max(max, { error: `is longer than ${max} characters` });

/**
 * POST /v1/schedules (spec; decisions.md "Schedules"). Exactly one of `cron_expression`,
 * `execute_at` and `text`; which combinations and values are valid (time zones, the cron
 * dialect, the endpoint) is the service's to check, with messages naming the field.
 */
export const CreateScheduleInput = z
  .strictObject({
    method: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required (GET or POST)' : 'must be GET or POST') })
      .transform((m) => m.toUpperCase())
      .pipe(z.enum(['GET', 'POST'], { error: 'must be GET or POST' }))
      .describe('`GET` or `POST`.'),
    endpoint: text('a short endpoint such as v1/scrapes, or an absolute http(s) URL', SCHEDULE_LIMITS.endpointLength)
      .min(1, { error: 'must not be empty' })
      .describe(
        'A short endpoint of this service (`v1/scrapes`, `v1/batches`, `v1/crawls`, `v1/maps`, `v1/answers`), called in-process as the schedule’s team, or an absolute http(s) URL called through the outbound network policy.',
      ),
    payload: z
      .record(z.string(), z.unknown(), { error: (issue) => `must be a JSON object (got ${typeName(issue.input)})` })
      .optional()
      .describe('The JSON body sent with POST (for a short endpoint: that endpoint’s request body). Default `{}`.'),
    cron_expression: text('6 fields: minutes hours day-of-month month day-of-week year', 256)
      .optional()
      .describe('Recurring: AWS EventBridge cron, `min hour dom month dow year` (`?`, `L`, `W`, `#`, 1 = SUN).'),
    execute_at: text('an ISO 8601 datetime in the future', 64)
      .optional()
      .describe('One-time: an ISO 8601 datetime in the future (without an offset: read in expression_timezone).'),
    expression_timezone: text('an IANA time zone such as Europe/Berlin', 64)
      .optional()
      .describe('IANA time zone; required with cron_expression, default UTC otherwise.'),
    text: text('a recurrence in words, such as "every weekday at 9am"', SCHEDULE_LIMITS.textLength)
      .optional()
      .describe('A recurrence in words, converted to `cron_expression` (returned with a `description`).'),
  })
  .describe('A schedule: exactly one of cron_expression, execute_at and text.');

export type CreateScheduleCommand = z.output<typeof CreateScheduleInput>;

/**
 * PATCH /v1/schedules/{id}: any of the create fields; what is given is validated as create
 * validates it (with the schedule's other fields), at most one of cron_expression, execute_at
 * and text, which replaces the schedule's timing.
 */
export const UpdateScheduleInput = CreateScheduleInput.partial().describe(
  'Any of the fields of a schedule; at most one of cron_expression, execute_at and text.',
);

export type UpdateScheduleCommand = z.output<typeof UpdateScheduleInput>;

const previewCount = (max: number) =>
  z
    .number({ error: `must be a whole number from 1 to ${max}` })
    .int({ error: `must be a whole number from 1 to ${max}` })
    .min(1, { error: 'must be at least 1' })
    .max(max, { error: `must be at most ${max}` });

const afterField = text('an ISO 8601 datetime', 64).describe(
  'Only due times after this instant (ISO 8601; without an offset, read in the time zone). Default: now.',
);

/** POST /v1/schedules/preview: the next due times of a timing not saved (exactly one of the three). */
export const PreviewScheduleInput = CreateScheduleInput.pick({
  cron_expression: true,
  execute_at: true,
  text: true,
  expression_timezone: true,
})
  .extend({
    count: previewCount(SCHEDULE_LIMITS.preview.max)
      .optional()
      .describe(`Due times to list, 1 to ${SCHEDULE_LIMITS.preview.max}; default ${SCHEDULE_LIMITS.preview.default}.`),
    after: afterField.optional(),
  })
  .describe('A timing as a schedule would have it: exactly one of cron_expression, execute_at and text.');

export type PreviewScheduleCommand = z.output<typeof PreviewScheduleInput>;

export const NextRunsQuery = z.object({
  count: queryInt(1, SCHEDULE_LIMITS.preview.max)
    .optional()
    .describe(`Due times to list, 1 to ${SCHEDULE_LIMITS.preview.max}; default ${SCHEDULE_LIMITS.preview.default}.`),
  after: afterField.optional(),
});

export const ScheduleIdParams = z.object({ schedule_id: resourceId('schedule') });

const booleanFlag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

export const ListSchedulesQuery = z.object({
  include_deleted: booleanFlag.optional().describe('Also list deleted (and ended) schedules.'),
});

export const ScheduleRunsQuery = z.object({
  limit: queryInt(SCHEDULE_LIMITS.runsPage.min, SCHEDULE_LIMITS.runsPage.max).optional(),
  cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page.'),
});

export interface RunsPageArgs {
  limit?: number;
  cursor?: string;
}
