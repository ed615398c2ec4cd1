import { Cron, type CronOptions } from 'croner';
import { parseCronExpression, type CronExpression } from './cron-expression.js';
import { invalidField } from './field-error.js';
import { parseTimezone } from './timezone.js';

/**
 * Next-run computation on croner 11 (see docs/schedules.md for the rules).
 *
 * Daylight saving time: an expression whose minutes and hours are fixed values (single values,
 * lists or ranges, no `*` and no step) names wall-clock times. Such a time that does not exist
 * (clocks set forward) fires once, at the first valid instant after the gap (02:30 on a
 * 02:00→03:00 night fires at 03:00); one that occurs twice (clocks set back) fires once, on its
 * first occurrence. An expression with `*` or a step in minutes or hours is an interval: it
 * fires at every real instant its fields match, so a gap's times are skipped and a repeated
 * hour fires on both occurrences (an hourly job fires every real hour). croner implements
 * exactly this with `fixedTimeRule: 'no-wildcard'`; the tests hold it to it.
 */
export const CRONER_OPTIONS: CronOptions = {
  mode: '7-part',
  // EventBridge numbers weekdays 1-7 from Sunday (Quartz), croner 0-6 unless told otherwise.
  alternativeWeekdays: true,
  // One of the two day fields is always `?` (rendered `*`), so AND and OR agree; AND is the
  // reading that cannot surprise.
  domAndDow: true,
  fixedTimeRule: 'no-wildcard',
  // No `sloppyRanges`: renderField writes `0/15` as `0-59/15`, which croner's strict stepping reads.
};

/** More than any caller needs; bounds the work one call can do. */
const MAX_COUNT = 10_000;

export interface RunWindow {
  /** IANA time zone the expression's wall-clock fields are read in. */
  timezone: string;
  /** Runs strictly after this instant are returned. */
  after: Date;
}

/** Parsed expressions kept for reuse (a croner Cron fills a 10,000-entry year table when built). */
const CACHE_SIZE = 1000;
const cache = new Map<string, Cron>();

/**
 * The croner Cron of an expression in a time zone, built once and reused: every use passes the
 * instant to count from, so a Cron without a function keeps no state between uses. Building one
 * per due time cost more than the rest of a schedule's firing.
 */
function cronFor(expression: CronExpression | string, timezone: string): Cron {
  const text = typeof expression === 'string' ? expression : expression.expression;
  const key = `${timezone}\n${text}`;
  let cron = cache.get(key);
  if (!cron) {
    const parsed = typeof expression === 'string' ? parseCronExpression(expression) : expression;
    cron = new Cron(parsed.pattern, { ...CRONER_OPTIONS, timezone: parseTimezone(timezone) });
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, cron);
  }
  return cron;
}

/** Answers kept for reuse: many schedules share an expression and a due time (every day at 09:00). */
const RUNS_CACHE_SIZE = 1000;
/** Longer lists (catching up on a long outage) are rare and would hold much: computed each time. */
const RUNS_CACHE_MAX_COUNT = 16;
const runsCache = new Map<string, readonly number[]>();

/**
 * The next `count` instants of an expression after an instant, as epoch milliseconds, computed
 * once per (time zone, expression, instant, count) while recently asked: 10,000 schedules due
 * at the same minute with the same expression cost croner 0.18 ms each to move on, the same
 * search 10,000 times (docs/benchmarks.md, "Schedules").
 */
function runsAfter(
  expression: CronExpression | string,
  timezone: string,
  after: Date,
  count: number,
): readonly number[] {
  const text = typeof expression === 'string' ? expression : expression.expression;
  const key = `${timezone}\n${text}\n${after.getTime()}\n${count}`;
  let runs = runsCache.get(key);
  if (!runs) {
    runs = cronFor(expression, timezone)
      .nextRuns(count, after)
      .map((d) => d.getTime());
    if (count > RUNS_CACHE_MAX_COUNT) return runs;
    if (runsCache.size >= RUNS_CACHE_SIZE) runsCache.delete(runsCache.keys().next().value!);
    runsCache.set(key, runs);
  }
  return runs;
}

/** The next `count` firing instants strictly after `window.after`, earliest first; fewer when the years run out. */
export function nextRuns(expression: CronExpression | string, window: RunWindow & { count: number }): Date[] {
  if (!Number.isInteger(window.count) || window.count < 0 || window.count > MAX_COUNT) {
    throw new RangeError(`count must be an integer from 0 to ${MAX_COUNT}`);
  }
  if (window.count === 0) return [];
  return runsAfter(expression, window.timezone, window.after, window.count).map((t) => new Date(t));
}

/** The next firing instant strictly after `window.after`, or null when the schedule has ended (its years are over). */
export function nextRun(expression: CronExpression | string, window: RunWindow): Date | null {
  const [next] = runsAfter(expression, window.timezone, window.after, 1);
  return next === undefined ? null : new Date(next);
}

/**
 * The first run after `window.after`, for accepting a schedule: a 400 `validation_error`
 * naming `field` when there is none, because its years are over or no date matches it
 * (`0 12 30 2 ? *`, 30 February).
 */
export function requireNextRun(expression: CronExpression, window: RunWindow, field = 'cron_expression'): Date {
  const next = nextRun(expression, window);
  if (next) return next;
  throw invalidField(
    field,
    expression.lastYear === null
      ? `${expression.expression} never fires: no date matches it`
      : `${expression.expression} has no run after ${window.after.toISOString()}: its last year is ${expression.lastYear}`,
  );
}
