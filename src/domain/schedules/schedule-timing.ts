import {
  convertScheduleText,
  describeCron,
  parseCronExpression,
  parseExecuteAt,
  parseTimezone,
  requireNextRun,
  type CronFromText,
} from './cron/index.js';
import { invalidField } from './cron/field-error.js';
import type { Schedule } from './schedule.entity.js';

/** When a schedule runs, as a request gives it: exactly one of the first three. */
export interface TimingInput {
  cron_expression?: string;
  execute_at?: string;
  text?: string;
  expression_timezone?: string;
}

/** When a schedule runs, checked: what is stored, and its first due time after `now`. */
export interface Timing {
  type: Schedule['type'];
  cronExpression: string | null;
  description: string | null;
  executeAt: Date | null;
  timezone: string;
  /** The natural-language text the expression came from (null unless `text` was given). */
  text: string | null;
  firstRun: Date;
}

export const TIMING_MODES = ['cron_expression', 'execute_at', 'text'] as const;

/** The timing fields `input` gives (a 400 naming the second when it gives more than one). */
export function timingModes(input: TimingInput): (typeof TIMING_MODES)[number][] {
  const given = TIMING_MODES.filter((m) => input[m] !== undefined);
  if (given.length > 1)
    throw invalidField(
      given[1]!,
      `cannot be combined with ${given[0]}; give exactly one of ${TIMING_MODES.join(', ')}`,
    );
  return given;
}

/** 400 unless `input` gives exactly one of cron_expression, execute_at and text. */
export function requireTimingMode(input: TimingInput): void {
  if (timingModes(input).length === 0) {
    throw invalidField(
      'cron_expression',
      'one of cron_expression (recurring), execute_at (one-time) or text (a recurrence in words) is required',
    );
  }
}

/**
 * The checks that need no model, done before any DNS lookup or model call: the timing of a
 * cron expression or `execute_at`; for `text`, only its time zone (null: convert it next).
 */
export function earlyTiming(input: TimingInput, now: Date): Timing | null {
  if (input.text === undefined) return timingOf(input, now, null);
  if (input.expression_timezone !== undefined) parseTimezone(input.expression_timezone);
  return null;
}

/** The timing of `input` (one mode given), converting `text` with the parser, then the model. */
export async function resolveTiming(
  input: TimingInput,
  options: { now: Date; cronFromText?: CronFromText },
): Promise<Timing> {
  const early = earlyTiming(input, options.now);
  if (early) return early;
  const converted = await convertScheduleText(input.text, { model: options.cronFromText });
  return timingOf(input, options.now, converted.cronExpression);
}

/**
 * When a schedule runs: from the cron expression (or the expression `text` became:
 * `fromText`), or execute_at; 400s name the field. A cron expression needs its time zone (the
 * text's defaults to UTC, as execute_at's does); one with no run after `now` is refused.
 */
export function timingOf(input: TimingInput, now: Date, fromText: string | null): Timing {
  const expression = fromText ?? input.cron_expression;
  const timezone = () => (input.expression_timezone === undefined ? 'UTC' : parseTimezone(input.expression_timezone));
  if (expression !== undefined) {
    if (input.expression_timezone === undefined && fromText === null) {
      throw invalidField(
        'expression_timezone',
        'is required with cron_expression (an IANA time zone such as UTC or Europe/Berlin)',
      );
    }
    const zone = timezone();
    const field = fromText === null ? 'cron_expression' : 'text';
    const cron = parseCronExpression(expression, field);
    return {
      type: 'recurring',
      cronExpression: cron.expression,
      description: describeCron(cron),
      executeAt: null,
      timezone: zone,
      text: fromText === null ? null : (input.text ?? null),
      firstRun: requireNextRun(cron, { timezone: zone, after: now }, field),
    };
  }
  const zone = timezone();
  const executeAt = parseExecuteAt(input.execute_at, { now, timezone: zone });
  return {
    type: 'onetime',
    cronExpression: null,
    description: null,
    executeAt,
    timezone: zone,
    text: null,
    firstRun: executeAt,
  };
}
