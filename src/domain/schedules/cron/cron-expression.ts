import { CRON_FIELDS, CronFieldError, expandRendered, renderField } from './cron-fields.js';
import { invalidField } from './field-error.js';

/** Longer than any sensible expression; keeps error messages and work bounded. */
const MAX_LENGTH = 256;
const EXAMPLE = '0 9 ? * MON-FRI *';
const LAYOUT = 'minutes hours day-of-month month day-of-week year';

/**
 * A valid cron expression of the AWS EventBridge dialect, parsed once and reused for next-run
 * computation and description.
 *
 * @example
 * const cron = parseCronExpression('0 9 ? * mon-fri *');
 * cron.expression; // '0 9 ? * MON-FRI *'
 * cron.pattern; // '0 0 9 * * 2-6 *' (croner, 7-part, 1 = SUN)
 */
export interface CronExpression {
  /** The expression as given, upper-cased, with single spaces between its six fields. */
  readonly expression: string;
  /** The six fields of `expression`. */
  readonly fields: readonly string[];
  /** The same schedule in croner's 7-part syntax (seconds first, always 0; weekdays 1 = SUN). */
  readonly pattern: string;
  /** The last year the year field allows, or null when it is `*`. */
  readonly lastYear: number | null;
}

/**
 * Parses and validates `min hour dom month dow year`: values in range (minutes 0-59, hours
 * 0-23, day-of-month 1-31, month 1-12 or JAN-DEC, day-of-week 1-7 or SUN-SAT with 1 = SUN,
 * year 1970-2199), lists, ranges, steps (`0/15`, `10-50/10`, `*` with a step), `L`, `LW`,
 * `15W` in day-of-month, `L`, `5L`, `6#3` in day-of-week. Exactly one of day-of-month and day-of-week
 * must be `?`, as AWS requires: `*` in both is refused like AWS refuses it, with the corrected
 * expression as a hint. Throws a 400 `validation_error` naming `field` and the cron field.
 */
export function parseCronExpression(input: unknown, field = 'cron_expression'): CronExpression {
  if (typeof input !== 'string' || input.trim() === '') throw invalidField(field, 'must be a non-empty string');
  if (input.length > MAX_LENGTH) throw invalidField(field, `is longer than ${MAX_LENGTH} characters`);
  const fields = input.trim().toUpperCase().split(/\s+/);
  if (fields.length !== 6) throw invalidField(field, fieldCountProblem(fields.length));
  const rendered = CRON_FIELDS.map((spec, i) => {
    try {
      return renderField(fields[i]!, spec);
    } catch (err) {
      if (err instanceof CronFieldError) throw invalidField(field, `${spec.name}: ${err.message}`);
      throw err;
    }
  });
  const dayProblem = dayFieldsProblem(fields);
  if (dayProblem) throw invalidField(field, dayProblem);
  return {
    expression: fields.join(' '),
    fields,
    pattern: `0 ${rendered.join(' ')}`,
    lastYear: rendered[5] === '*' ? null : expandRendered(rendered[5]!, CRON_FIELDS[5]!).at(-1)!,
  };
}

function fieldCountProblem(count: number): string {
  const base = `needs 6 fields (${LAYOUT}), got ${count}`;
  if (count === 5) return `${base}: the AWS EventBridge dialect ends with a year field, for example ${EXAMPLE}`;
  if (count === 7) return `${base}: there is no seconds field, for example ${EXAMPLE}`;
  return `${base}, for example ${EXAMPLE}`;
}

function dayFieldsProblem(fields: readonly string[]): string | null {
  const [dom, dow] = [fields[2], fields[4]];
  if (dom === '?' && dow === '?') {
    return 'day-of-month and day-of-week cannot both be ?: set one of them, for example 0 12 * * ? *';
  }
  if (dom === '?' || dow === '?') return null;
  const withQuestion = (index: number) => fields.map((f, i) => (i === index ? '?' : f)).join(' ');
  const suggestion = dow === '*' ? withQuestion(4) : dom === '*' ? withQuestion(2) : null;
  return suggestion
    ? `day-of-month and day-of-week are both set; one of them must be ? (${suggestion})`
    : `day-of-month ${dom} and day-of-week ${dow} cannot be combined; one of them must be ?`;
}
