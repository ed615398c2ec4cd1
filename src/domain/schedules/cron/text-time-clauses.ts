import { nightMeridiem, refuse, setPeriod, setStep, type ClockTime, type Draft } from './text-draft.js';
import { AND, TO } from './text-vocabulary.js';

/**
 * One phrase the schedule-text parser recognises: a pattern anchored at the start of the rest
 * of the text, and what it adds to the draft. `apply` returns false when the match is not this
 * clause after all (a bare `9` is not a time), so the next clause gets its turn.
 */
export interface Clause {
  readonly pattern: RegExp;
  /** Times of day and days: the parser refuses a text that pairs different times with different days. */
  readonly kind?: 'time' | 'day';
  apply(match: RegExpExecArray, draft: Draft): boolean | void;
}

/** A clause pattern: anchored at the start, ending where a word ends. */
export const clause = (source: string) => new RegExp(`^(?:${source})(?=$|[\\s,])`);

const TIME_SOURCE =
  '(?:noon|midday|midnight|\\d{1,2}(?::\\d{2})?(?:\\s?[ap]m)?(?:\\s+(?:in\\s+the\\s+(?:morning|afternoon|evening)|at\\s+night))?)';
const TIME_ITEM = new RegExp(TIME_SOURCE, 'g');
const TIME_PARTS =
  /^(\d{1,2})(?::(\d{2}))?(?:\s?([ap]m))?(?:\s+(in the morning|in the afternoon|in the evening|at night))?$/;

/** `9`, `9am`, `9:30 pm`, `18:30`, `noon`, `7 in the evening`; a refusal for `13pm` or `25:00`. */
export function parseTime(text: string): ClockTime {
  if (text === 'noon' || text === 'midday') return { hour: 12, minute: 0, meridiem: 'pm' };
  if (text === 'midnight') return { hour: 12, minute: 0, meridiem: 'am' };
  const parts = TIME_PARTS.exec(text);
  if (!parts) refuse(`"${text}" is not a time of day`);
  const hour = Number(parts[1]);
  const minute = parts[2] === undefined ? 0 : Number(parts[2]);
  const suffix = parts[4];
  let meridiem = (parts[3] as 'am' | 'pm' | undefined) ?? null;
  if (suffix === 'at night') meridiem = nightMeridiem(hour, 'night');
  else if (suffix) meridiem = suffix === 'in the morning' ? 'am' : 'pm';
  if (minute > 59) refuse(`"${text}" is not a time of day: minutes run 00-59`);
  if (meridiem === null ? hour > 23 : hour < 1 || hour > 12) refuse(`"${text}" is not a time of day`);
  return { hour, minute, meridiem };
}

/** A time that cannot be a bare count: it has am/pm, minutes, or is a word. */
const isClearlyTime = (text: string) => /[ap]m|:|noon|midday|midnight|morning|afternoon|evening|night/.test(text);

const times = (list: string) => (list.match(TIME_ITEM) ?? []).map(parseTime);

/** `every 15 minutes`, `every 2 hours`, `every other day`, `every quarter`, `each month`, `every 30m`. */
function applyEvery(match: RegExpExecArray, draft: Draft): void {
  const count = match[1] === 'other' ? 2 : match[1] === undefined ? 1 : Number(match[1]);
  const unit = match[2]!;
  if (count === 0) refuse('every 0 is not a repetition');
  if (/^m(in|$)/.test(unit)) {
    if (count >= 60 && count % 60 === 0) return setStep(draft, 'hourStep', count / 60);
    return setStep(draft, 'minuteStep', count);
  }
  if (/^h/.test(unit)) return count === 24 ? setPeriod(draft, 'day') : setStep(draft, 'hourStep', count);
  if (/^q/.test(unit)) {
    setPeriod(draft, 'month');
    return setStep(draft, 'monthStep', 3 * count);
  }
  if (/^mo/.test(unit)) {
    if (12 % count !== 0) {
      refuse(`every ${count} months cannot be expressed in cron: the step must divide 12 (1, 2, 3, 4, 6, 12)`);
    }
    setPeriod(draft, 'month');
    return setStep(draft, 'monthStep', count);
  }
  const period = unit.startsWith('d') ? 'day' : unit.startsWith('w') ? 'week' : 'year';
  if (count !== 1) {
    refuse(
      `every ${count} ${period}s cannot be expressed in cron, which counts ${period === 'day' ? 'days within each month' : 'from fixed dates'}, not from a start; name the days instead, like "every monday"`,
    );
  }
  setPeriod(draft, period);
}

const COUNT_WORDS: Record<string, number> = { once: 1, twice: 2, thrice: 3 };
const ADVERB_UNITS: Record<string, string> = { hourly: 'hour', daily: 'day', weekly: 'week', monthly: 'month' };

/** `twice a day`, `3 times an hour`, `once a week`, `twice a year`. */
function applyTimesPer(count: number, unit: string, draft: Draft): void {
  if (count === 0) refuse('0 times is not a repetition');
  if (unit === 'minute') {
    if (count > 1) refuse('cron runs at most once a minute');
    return setStep(draft, 'minuteStep', 1);
  }
  if (unit === 'hour') {
    if (60 % count !== 0) refuse(`${count} times an hour cannot be spread evenly over the hour`);
    return count === 1 ? setStep(draft, 'hourStep', 1) : setStep(draft, 'minuteStep', 60 / count);
  }
  if (unit === 'day') return count === 1 ? setPeriod(draft, 'day') : setStep(draft, 'timesPerDay', count);
  if (unit === 'year' && count > 1) {
    if (12 % count !== 0) refuse(`${count} times a year cannot be spread evenly over the months`);
    setPeriod(draft, 'month');
    return setStep(draft, 'monthStep', 12 / count);
  }
  if (count > 1) refuse(`say which days, like "every monday and thursday" or "on the 1st and 15th"`);
  setPeriod(draft, unit === 'quarter' ? 'month' : (unit as 'week' | 'month' | 'year'));
  if (unit === 'quarter') setStep(draft, 'monthStep', 3);
}

const ADVERBS: Record<string, (draft: Draft) => void> = {
  hourly: (d) => setStep(d, 'hourStep', 1),
  'half-hourly': (d) => setStep(d, 'minuteStep', 30),
  daily: (d) => setPeriod(d, 'day'),
  nightly: (d) => {
    setPeriod(d, 'day');
    d.hint = 'night';
  },
  weekly: (d) => setPeriod(d, 'week'),
  monthly: (d) => setPeriod(d, 'month'),
  quarterly: (d) => {
    setPeriod(d, 'month');
    setStep(d, 'monthStep', 3);
  },
  'semi-annually': (d) => {
    setPeriod(d, 'month');
    setStep(d, 'monthStep', 6);
  },
  yearly: (d) => setPeriod(d, 'year'),
  annually: (d) => setPeriod(d, 'year'),
};

export const TIME_CLAUSES: readonly Clause[] = [
  {
    pattern: clause('(?:every|each)\\s+(?:\\d+\\s*(?:seconds?|secs?|s)|seconds?(?=$|,))'),
    apply: () => refuse('cron runs at most once a minute; seconds are not supported'),
  },
  {
    pattern: clause('(?:every|each)\\s+(?:a\\s+)?(half|quarter)(?:\\s+an|\\s+of\\s+an)?[\\s-]hour'),
    apply: (m, d) => setStep(d, 'minuteStep', m[1] === 'half' ? 30 : 15),
  },
  {
    pattern: clause(
      '(?:every|each)\\s+(?:(\\d+|other)\\s*)?(minutes?|mins?|m|hours?|hrs?|h|days?|weeks?|months?|quarters?|years?)',
    ),
    apply: applyEvery,
  },
  {
    pattern: clause(
      '(?:(once|twice|thrice)|(\\d+)\\s+times)\\s+(?:a|an|per|every|each)\\s+(minute|hour|day|week|month|quarter|year)',
    ),
    apply: (m, d) => applyTimesPer(m[1] ? COUNT_WORDS[m[1]]! : Number(m[2]), m[3]!, d),
  },
  {
    pattern: clause('(once|twice|thrice)\\s+(hourly|daily|weekly|monthly)'),
    apply: (m, d) => applyTimesPer(COUNT_WORDS[m[1]!]!, ADVERB_UNITS[m[2]!]!, d),
  },
  {
    pattern: clause('(biweekly|fortnightly|bimonthly|biannually|bi-weekly|bi-monthly|bi-annually)'),
    apply: (m) => refuse(`"${m[1]}" is ambiguous or repeats every other week or month, which cron cannot express`),
  },
  {
    pattern: clause(
      '(hourly|half-?hourly|daily|nightly|weekly|monthly|quarterly|semi-?annually|half-?yearly|yearly|annually)',
    ),
    apply: (m, d) => {
      const word = m[1]!
        .replace(/^half-?hourly$/, 'half-hourly')
        .replace(/^(semi-?annually|half-?yearly)$/, 'semi-annually');
      ADVERBS[word]!(d);
    },
  },
  {
    // `every evening at 7`; `weekday mornings at 8`, `monday evening at 6` (the days come from their clause).
    pattern: clause('(every\\s+|each\\s+)?(?:in\\s+the\\s+)?(morning|afternoon|evening|night)s?'),
    apply: (m, d) => {
      if (m[1]) setPeriod(d, 'day');
      d.hint = m[2] === 'morning' ? 'am' : m[2] === 'night' ? 'night' : 'pm';
      if (m[2] !== 'night') d.dayPart = m[2];
    },
  },
  {
    pattern: clause(
      `(?:between\\s+(${TIME_SOURCE})\\s+and\\s+(${TIME_SOURCE})|(?:from\\s+)?(${TIME_SOURCE})${TO}(${TIME_SOURCE}))`,
    ),
    apply: (m, d) => {
      if (d.window) refuse('the text gives two windows of hours');
      d.window = { from: parseTime(m[1] ?? m[3]!), to: parseTime(m[2] ?? m[4]!) };
    },
  },
  {
    pattern: clause('(?:during|in|within)\\s+(?:business|working|office|work)\\s+hours'),
    apply: (_m, d) => {
      d.window = { from: { hour: 9, minute: 0, meridiem: 'am' }, to: { hour: 5, minute: 0, meridiem: 'pm' } };
    },
  },
  {
    pattern: clause(
      '(?:at\\s+)?(?:(\\d{1,2})\\s+(?:minutes?\\s+)?past|:(\\d{2})|(half)\\s+past|(?:a\\s+)?(quarter)\\s+(past|to))(?:\\s+(?:the|every|each)\\s+hour)?',
    ),
    apply: (m, d) => {
      const minute = m[3] ? 30 : m[4] ? (m[5] === 'past' ? 15 : 45) : Number(m[1] ?? m[2]);
      if (minute > 59) refuse(`${minute} minutes past the hour is not a minute of the hour`);
      d.minuteOfHour = minute;
    },
  },
  {
    pattern: clause('on\\s+the\\s+(half\\s+)?hour'),
    apply: (m, d) => {
      d.minuteOfHour = m[1] ? 30 : 0;
    },
  },
  {
    pattern: clause(`(?:at|@)\\s*(${TIME_SOURCE}(?:${AND}(?:at\\s+)?${TIME_SOURCE})*)`),
    kind: 'time',
    apply: (m, d) => {
      d.times.push(...times(m[1]!));
    },
  },
];

/** `9am`, `noon and midnight` without `at`: last, and only for what cannot be a count or a day. */
export const BARE_TIME_CLAUSE: Clause = {
  pattern: clause(`(${TIME_SOURCE}(?:${AND}(?:at\\s+)?${TIME_SOURCE})*)`),
  kind: 'time',
  apply: (m, d) => {
    const items = m[1]!.match(TIME_ITEM) ?? [];
    if (!items.every(isClearlyTime)) return false;
    d.times.push(...items.map(parseTime));
  },
};
