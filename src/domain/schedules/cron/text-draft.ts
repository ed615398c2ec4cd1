/**
 * What the schedule-text clauses collect, and how it becomes one EventBridge cron expression.
 * Anything cron cannot say exactly is refused with a {@link TextRefusal} that says why, never
 * approximated.
 */

/** A clock time as written: `9`, `9:30 pm`, `noon`; `meridiem` is null for a 24-hour reading. */
export interface ClockTime {
  hour: number;
  minute: number;
  meridiem: 'am' | 'pm' | null;
}

export type Period = 'day' | 'week' | 'month' | 'year';

/** How a bare hour is read: `night` makes 6-11 evening hours, 12 midnight and 1-5 small hours. */
export type Hint = 'am' | 'pm' | 'night';

export interface Draft {
  minuteStep?: number;
  hourStep?: number;
  timesPerDay?: number;
  /** `at :30`, `at half past`: the minute of every hour. */
  minuteOfHour?: number;
  times: ClockTime[];
  window?: { from: ClockTime; to: ClockTime };
  /** Plain weekdays, 1 = Sunday. */
  weekdays: Set<number>;
  /** `2#1` (first Monday), `6L` (last Friday). */
  weekdayTokens: string[];
  /** `1`, `15`, `L`, `LW`, `1W`. */
  monthDays: string[];
  months: Set<number>;
  monthStep?: number;
  years: string[];
  period?: Period;
  /** `every evening`, `nightly`: how a bare `at 7` is read. */
  hint?: Hint;
  /** `morning`, `afternoon`, `evening`: a part of the day, which needs a time to be a schedule. */
  dayPart?: string;
}

/** The text was understood, but it asks for something cron cannot express or contradicts itself. */
export class TextRefusal extends Error {}

export function refuse(reason: string): never {
  throw new TextRefusal(reason);
}

export function emptyDraft(): Draft {
  return { times: [], weekdays: new Set(), weekdayTokens: [], monthDays: [], months: new Set(), years: [] };
}

type StepKey = 'minuteStep' | 'hourStep' | 'timesPerDay' | 'monthStep';

export function setStep(draft: Draft, key: StepKey, value: number): void {
  if (draft[key] !== undefined && draft[key] !== value) refuse('the text gives two different repetitions');
  draft[key] = value;
}

export function setPeriod(draft: Draft, period: Period): void {
  if (draft.period !== undefined && draft.period !== period) {
    refuse(`the text says both ${adverb(draft.period)} and ${adverb(period)}`);
  }
  draft.period = period;
}

const adverb = (period: Period) => (period === 'day' ? 'daily' : `${period}ly`);

const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** The EventBridge expression the draft describes. Midnight when no time is given. */
export function buildCron(draft: Draft): string {
  const [minutes, hours] = timeFields(draft);
  const [dayOfMonth, dayOfWeek] = dayFields(draft);
  const year = draft.years.length > 0 ? draft.years.join(',') : '*';
  return [minutes, hours, dayOfMonth, monthField(draft), dayOfWeek, year].join(' ');
}

function timeFields(draft: Draft): [string, string] {
  const repetitions = [draft.minuteStep, draft.hourStep, draft.timesPerDay].filter((v) => v !== undefined);
  if (repetitions.length > 1) refuse('the text gives two different repetitions');
  checkSteps(draft);
  const hours = draft.times.map((time) => hourOf(time, draft.hint));
  const hasTimes = hours.length > 0;
  if (draft.minuteStep !== undefined) {
    if (hasTimes || draft.minuteOfHour !== undefined) refuse('give either a repetition or times of day, not both');
    const minutes = draft.minuteStep === 1 ? '*' : `0/${draft.minuteStep}`;
    return [minutes, draft.window ? windowHours(draft, 1, false) : '*'];
  }
  if (draft.hourStep !== undefined) {
    if (hasTimes) refuse('give either a repetition or times of day, not both');
    const minute = String(draft.minuteOfHour ?? 0);
    if (draft.window) return [minute, windowHours(draft, draft.hourStep, true)];
    return [minute, draft.hourStep === 1 ? '*' : `0/${draft.hourStep}`];
  }
  if (draft.window) refuse('say how often within those hours, for example "every hour between 9 and 17"');
  if (draft.minuteOfHour !== undefined) {
    if (hasTimes) refuse('give either minutes past every hour or times of day, not both');
    return [String(draft.minuteOfHour), '*'];
  }
  if (draft.timesPerDay !== undefined && !hasTimes) {
    const every = 24 / draft.timesPerDay;
    return ['0', Array.from({ length: draft.timesPerDay }, (_, i) => i * every).join(',')];
  }
  if (draft.timesPerDay !== undefined && draft.timesPerDay !== hours.length) {
    refuse(`the text says ${draft.timesPerDay} times a day but gives ${hours.length} times`);
  }
  if (!hasTimes && draft.dayPart) refuse(`say what time in the ${draft.dayPart}, like "every ${draft.dayPart} at 7"`);
  if (!hasTimes) return ['0', '0'];
  const minutes = [...new Set(draft.times.map((time) => time.minute))];
  if (minutes.length > 1) {
    const list = draft.times.map((t) => `${hourOf(t, draft.hint)}:${String(t.minute).padStart(2, '0')}`).join(', ');
    refuse(
      `times with different minutes (${list}) need one schedule each: cron repeats the same minutes in every hour`,
    );
  }
  return [String(minutes[0]), [...new Set(hours)].sort((a, b) => a - b).join(',')];
}

/** Steps cron repeats exactly: minutes restart every hour and hours every day, so only divisors fit. */
function checkSteps(draft: Draft): void {
  const { minuteStep, hourStep, timesPerDay } = draft;
  if (minuteStep !== undefined && 60 % minuteStep !== 0) {
    refuse(
      `every ${minuteStep} minutes cannot be expressed in cron: minutes restart every hour, so the step must divide 60 (1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30)`,
    );
  }
  if (hourStep !== undefined && draft.window === undefined && 24 % hourStep !== 0) {
    refuse(
      `every ${hourStep} hours cannot be expressed in cron: hours restart at midnight, so the step must divide 24 (1, 2, 3, 4, 6, 8, 12)`,
    );
  }
  if (timesPerDay !== undefined && draft.times.length === 0 && 24 % timesPerDay !== 0) {
    refuse(
      `${timesPerDay} times a day cannot be spread evenly over whole hours; give the times, like "at 8am, 1pm and 6pm"`,
    );
  }
}

/** The 24-hour hour of a clock time; a bare hour up to 12 is read with the text's hint, if any. */
export function hourOf(time: ClockTime, hint?: Hint): number {
  const meridiem = time.meridiem ?? (hint && time.hour <= 12 ? nightMeridiem(time.hour, hint) : null);
  if (meridiem === null) return time.hour;
  return (time.hour % 12) + (meridiem === 'pm' ? 12 : 0);
}

/** `at 2` at night is 02:00, `at 10` 22:00, `at 12` midnight. */
export function nightMeridiem(hour: number, hint: Hint): 'am' | 'pm' {
  if (hint !== 'night') return hint;
  return hour >= 6 && hour <= 11 ? 'pm' : 'am';
}

/**
 * The hours a window covers, every `step` hours from its start: up to and including its end
 * for hourly runs, up to the hour before its end for runs every few minutes (so none falls
 * after it). `9 to 5` without am/pm means 9:00 to 17:00.
 */
function windowHours(draft: Draft, step: number, includeEnd: boolean): string {
  const { from, to } = draft.window!;
  if (from.minute !== 0 || to.minute !== 0) refuse('a window of hours must start and end on the hour');
  const start = hourOf(from, draft.hint);
  let end = hourOf(to, draft.hint);
  const bare = from.meridiem === null && to.meridiem === null && draft.hint === undefined;
  if (bare && end < start && end < 12 && end + 12 > start) end += 12;
  if (start === end) refuse('the window of hours starts and ends at the same time');
  const length = ((end - start + 24) % 24) - (includeEnd ? 0 : 1);
  const hours = Array.from({ length: Math.floor(length / step) + 1 }, (_, i) => (start + i * step) % 24);
  const last = start + Math.floor(length / step) * step;
  if (last < 24) {
    if (hours.length === 1) return String(start);
    return step === 1 ? `${start}-${last}` : `${start}-${last}/${step}`;
  }
  return compress(hours, String).join(',');
}

function dayFields(draft: Draft): [string, string] {
  const hasWeekdays = draft.weekdays.size > 0 || draft.weekdayTokens.length > 0;
  if (draft.monthDays.length > 0 && hasWeekdays) {
    refuse('cron cannot combine days of the month with days of the week; give one of them');
  }
  if (draft.monthDays.length > 0) {
    if (draft.period === 'week') refuse('"weekly" and a day of the month do not go together; give one of them');
    if (draft.monthDays.length > 1 && draft.monthDays.some((d) => /[LW]/.test(d))) {
      refuse('the last day, the last weekday and the first weekday of a month cannot be listed with other days');
    }
    return [draft.monthDays.join(','), '?'];
  }
  if (hasWeekdays) {
    if ((draft.period === 'month' || draft.period === 'year') && draft.weekdays.size > 0) {
      refuse(`say which one in the ${draft.period}, for example "the first monday of the month"`);
    }
    return ['?', [...compress([...draft.weekdays], (d) => DAY_NAMES[d - 1]!), ...draft.weekdayTokens].join(',')];
  }
  if (draft.period === 'week') return ['?', 'SUN'];
  const dailyOrMore =
    draft.period === 'day' ||
    [draft.minuteStep, draft.hourStep, draft.timesPerDay, draft.minuteOfHour].some((v) => v !== undefined);
  const monthly = draft.period === 'month' || draft.period === 'year' || draft.monthStep !== undefined;
  return (monthly || draft.months.size > 0) && !dailyOrMore ? ['1', '?'] : ['*', '?'];
}

function monthField(draft: Draft): string {
  if (draft.monthStep !== undefined && draft.months.size > 0) refuse('give either a month repetition or months');
  if (draft.monthStep !== undefined) return draft.monthStep === 1 ? '*' : `1/${draft.monthStep}`;
  if (draft.months.size > 0) return compress([...draft.months], String).join(',');
  if (draft.period !== 'year') return '*';
  const dayGiven = draft.monthDays.length > 0 || draft.weekdayTokens.length > 0;
  if (dayGiven) refuse('say which month, for example "every year on march 15"');
  return '1';
}

/** Sorted values with runs of three or more written as ranges: [2,3,4,5,6] → ['MON-FRI']. */
function compress(values: number[], name: (value: number) => string): string[] {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) out.push(`${name(sorted[i]!)}-${name(sorted[j]!)}`);
    else for (let k = i; k <= j; k++) out.push(name(sorted[k]!));
    i = j + 1;
  }
  return out;
}
