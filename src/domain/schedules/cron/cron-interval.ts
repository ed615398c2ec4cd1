import { Cron } from 'croner';
import { parseCronExpression, type CronExpression } from './cron-expression.js';
import { CRON_FIELDS, expandRendered } from './cron-fields.js';
import { CRONER_OPTIONS } from './cron-runs.js';
import { invalidField } from './field-error.js';

const MINUTES_PER_DAY = 1440;
const DAY_MS = 86_400_000;
/** Matching dates looked at for the closest two: years of monthly dates, decades of yearly ones. */
const DATE_SAMPLES = 60;

export interface IntervalOptions {
  /** Only dates from the (UTC) day of this instant on count. */
  after: Date;
}

/**
 * The shortest time between two consecutive runs, in milliseconds, on the wall clock: the
 * closest two times of day, or the last time of one matching date and the first of the next
 * (`0 0,23 ? * SUN,MON *` runs 23:00 Sunday and 00:00 Monday, an hour apart). Null when fewer
 * than two runs remain. Exact in UTC and fixed-offset zones (monitors use UTC); in a zone with
 * daylight saving time a transition night can bring two runs closer by the shift.
 *
 * @example
 * minIntervalMs('0/5 9-17 ? * MON-FRI *', { after: new Date() }); // 300_000
 */
export function minIntervalMs(expression: CronExpression | string, options: IntervalOptions): number | null {
  const cron = typeof expression === 'string' ? parseCronExpression(expression) : expression;
  const [, minuteField, hourField] = cron.pattern.split(' ') as [string, string, string];
  const minutes = expandRendered(minuteField, CRON_FIELDS[0]!);
  const times = expandRendered(hourField, CRON_FIELDS[1]!).flatMap((hour) =>
    minutes.map((minute) => hour * 60 + minute),
  );
  const within = smallestGap(times);
  const span = times[times.length - 1]! - times[0]!;
  // Runs on two matching dates are at least a day minus the span of the times of day apart.
  const needsDates = MINUTES_PER_DAY - span < within;
  const dates = matchingDates(cron, options.after, needsDates);
  if (dates.length === 0) return null;
  const across = dates.length > 1 ? smallestGap(dates) * MINUTES_PER_DAY - span : Infinity;
  const shortest = Math.min(within, across);
  return shortest === Infinity ? null : shortest * 60_000;
}

/**
 * Refuses an expression whose runs can come closer together than `minimumMs` (monitors: 10
 * minutes) with a 400 `validation_error` naming `field`.
 */
export function assertMinInterval(
  expression: CronExpression,
  options: IntervalOptions & { minimumMs: number },
  field: string,
): void {
  const shortest = minIntervalMs(expression, options);
  if (shortest !== null && shortest < options.minimumMs) {
    throw invalidField(
      field,
      `runs as often as every ${formatDuration(shortest)}; runs must be at least ${formatDuration(options.minimumMs)} apart`,
    );
  }
}

/** `10 minutes`, `1 hour`, `90 seconds`: the largest unit that divides evenly. */
export function formatDuration(ms: number): string {
  const units: [number, string][] = [
    [DAY_MS, 'day'],
    [3_600_000, 'hour'],
    [60_000, 'minute'],
    [1_000, 'second'],
  ];
  for (const [size, name] of units) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${name}${ms === size ? '' : 's'}`;
  }
  return `${ms} ms`;
}

function smallestGap(sorted: readonly number[]): number {
  let gap = Infinity;
  for (let i = 1; i < sorted.length; i++) gap = Math.min(gap, sorted[i]! - sorted[i - 1]!);
  return gap;
}

/**
 * Days (since the epoch) that match the expression's date fields, from the day of `after`:
 * one to show there is any, or up to {@link DATE_SAMPLES}, stopping at two consecutive days.
 */
function matchingDates(cron: CronExpression, after: Date, sample: boolean): number[] {
  const [, , , ...dateFields] = cron.pattern.split(' ');
  const days = new Cron(`0 0 0 ${dateFields.join(' ')}`, { ...CRONER_OPTIONS, utcOffset: 0 });
  const startOfDay = new Date(Math.floor(after.getTime() / DAY_MS) * DAY_MS - 1);
  const out: number[] = [];
  for (const date of days.enumerate(startOfDay)) {
    out.push(Math.round(date.getTime() / DAY_MS));
    const consecutive = out.length > 1 && out[out.length - 1]! - out[out.length - 2]! === 1;
    if (!sample || consecutive || out.length >= DATE_SAMPLES) break;
  }
  return out;
}
