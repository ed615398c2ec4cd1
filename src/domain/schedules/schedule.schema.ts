import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';

export const SCHEDULE_LIMITS = {
  endpointLength: 2048,
  textLength: 256,
  runsPage: { min: 1, max: 100, default: 20 },
  /** Schedules one GET /v1/schedules returns at most (newest first). */
  list: 1000,
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
