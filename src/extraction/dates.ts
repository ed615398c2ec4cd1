/**
 * Dates as pages write them, read into ISO 8601 parts: `2025-06-14T19:30:00+02:00`, "June 14,
 * 2025 at 7:30 PM", "Sat, 14 Jun 2025 19:30:00 GMT", "14.06.2025, 19:30 Uhr", "14. Juni 2025",
 * "6/14/2025". Nothing is filled in that the text does not say: no time → no time, no day → null.
 */

export interface DateParts {
  /** `YYYY-MM-DD`. */
  date: string;
  /** `HH:MM:SS` when the text gives a time. */
  time?: string;
  /** `Z` or `±HH:MM` when the text gives a zone. */
  offset?: string;
}

const MONTHS: Record<string, number> = {};
const MONTH_NAMES = [
  'january jan januar janvier enero ene janv jän jänner',
  'february feb februar fevrier février febrero févr',
  'march mar märz maerz mars marzo mär mrz',
  'april apr avril abril avr',
  'may mai mayo',
  'june jun juni juin junio',
  'july jul juli juillet julio juil',
  'august aug août aout agosto ago',
  'september sep sept septembre septiembre set',
  'october oct oktober octobre octubre okt',
  'november nov novembre noviembre',
  'december dec dezember décembre decembre diciembre dez déc dic',
];
MONTH_NAMES.forEach((names, index) => {
  for (const name of names.split(' ')) MONTHS[name] = index + 1;
});

const MONTH = '([A-Za-zÀ-ÿ]{3,10})\\.?';
const ISO = /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?/;
const DOTTED = /\b(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4})\b/;
const SLASHED = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/;
const MONTH_FIRST = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`);
const DAY_FIRST = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|\\.|er)?\\s+(?:de\\s+)?${MONTH}\\s+(?:de\\s+)?(\\d{4})\\b`);
const TIME_12 = /\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?/i;
const TIME_24 = /\b(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*(?:Uhr|h))?(?:\s*(GMT|UTC|Z|[+-]\d{2}:?\d{2}))?/;

/** Day-first unless the language is American English (`en`, `en-US`) or a part is over 12. */
function monthFirst(language: string | undefined): boolean {
  const tag = language?.trim().toLowerCase() ?? '';
  return tag === 'en' || tag === 'en-us' || tag === '';
}

/**
 * The date (and time and zone, when written) in `text`, or null when it names no full date.
 *
 * @example
 * parseDate('Saturday, June 14, 2025 at 7:30 PM'); // { date: '2025-06-14', time: '19:30:00' }
 * parseDate('14.06.2025'); // { date: '2025-06-14' }
 */
export function parseDate(text: string, language?: string): DateParts | null {
  const iso = ISO.exec(text);
  if (iso) {
    const date = build(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    if (!date) return null;
    const parts: DateParts = { date };
    if (iso[4]) parts.time = `${iso[4]}:${iso[5]}:${iso[6] ?? '00'}`;
    if (iso[7]) parts.offset = zone(iso[7]);
    return parts;
  }
  const found = findWrittenDate(text, language);
  if (!found) return null;
  const parts: DateParts = { date: found.date };
  Object.assign(parts, readTime(text.slice(found.end)));
  return parts;
}

function findWrittenDate(text: string, language: string | undefined): { date: string; end: number } | null {
  const tries: Array<[RegExpExecArray | null, (m: RegExpExecArray) => string | null]> = [
    [DOTTED.exec(text), (m) => build(Number(m[3]), Number(m[2]), Number(m[1]))],
    [MONTH_FIRST.exec(text), (m) => build(Number(m[3]), monthNumber(m[1] as string), Number(m[2]))],
    [DAY_FIRST.exec(text), (m) => build(Number(m[3]), monthNumber(m[2] as string), Number(m[1]))],
    [SLASHED.exec(text), (m) => slashed(m, language)],
  ];
  let best: { date: string; index: number; end: number } | null = null;
  for (const [match, read] of tries) {
    if (!match || (best && match.index >= best.index)) continue;
    const date = read(match);
    if (date) best = { date, index: match.index, end: match.index + match[0].length };
  }
  return best;
}

function slashed(match: RegExpExecArray, language: string | undefined): string | null {
  const first = Number(match[1]);
  const second = Number(match[2]);
  const year = Number(match[3]);
  if (first > 12) return build(year, second, first);
  if (second > 12) return build(year, first, second);
  return monthFirst(language) ? build(year, first, second) : build(year, second, first);
}

function readTime(rest: string): Partial<DateParts> {
  const head = rest.slice(0, 40);
  const twelve = TIME_12.exec(head);
  if (twelve) {
    let hour = Number(twelve[1]) % 12;
    if ((twelve[3] as string).toLowerCase() === 'p') hour += 12;
    const minute = twelve[2] ?? '00';
    return hour < 24 ? { time: `${pad(hour)}:${minute}:00` } : {};
  }
  const clock = TIME_24.exec(head);
  if (!clock || Number(clock[1]) > 23 || Number(clock[2]) > 59) return {};
  const result: Partial<DateParts> = { time: `${pad(Number(clock[1]))}:${clock[2]}:${clock[3] ?? '00'}` };
  if (clock[4]) result.offset = zone(clock[4]);
  return result;
}

function zone(raw: string): string {
  if (/^(?:Z|GMT|UTC)$/i.test(raw)) return 'Z';
  const digits = raw.replace(':', '');
  return `${digits.slice(0, 3)}:${digits.slice(3, 5)}`;
}

function monthNumber(name: string): number {
  return MONTHS[name.toLowerCase()] ?? 0;
}

function build(year: number, month: number, day: number): string | null {
  if (year < 1000 || year > 2999 || month < 1 || month > 12 || day < 1) return null;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) return null;
  return `${year}-${pad(month)}-${pad(day)}`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** `date-time` → `YYYY-MM-DDTHH:MM:SS[zone]` (the date alone when no time is written); `date` → the date; `time` → the time. */
export function formatDate(parts: DateParts, format: string): string | null {
  if (format === 'date') return parts.date;
  if (format === 'time') return parts.time ? `${parts.time}${parts.offset ?? ''}` : null;
  return parts.time ? `${parts.date}T${parts.time}${parts.offset ?? ''}` : parts.date;
}

const DURATION = /^P(?:\d+(?:\.\d+)?[YMWD])*(?:T(?:\d+(?:\.\d+)?[HMS])+)?$/i;
const DURATION_PART =
  /(\d+(?:\.\d+)?)\s*(h|hr|hrs|hours?|std|stunden?|m|mins?|minutes?|minuten?|s|secs?|seconds?|d|days?|tage?)\b/gi;

/** Minutes in an ISO 8601 duration (`PT1H30M`) or a written one ("1 hr 30 mins"); null otherwise. */
export function durationMinutes(text: string): number | null {
  const trimmed = text.trim();
  if (DURATION.test(trimmed) && trimmed.length > 1) {
    let minutes = 0;
    const [datePart = '', timePart = ''] = trimmed.slice(1).toUpperCase().split('T');
    for (const [, n, unit] of datePart.matchAll(/(\d+(?:\.\d+)?)([YMWD])/g)) {
      minutes += Number(n) * ({ Y: 525600, M: 43200, W: 10080, D: 1440 }[unit as 'Y'] ?? 0);
    }
    for (const [, n, unit] of timePart.matchAll(/(\d+(?:\.\d+)?)([HMS])/g)) {
      minutes += Number(n) * ({ H: 60, M: 1, S: 1 / 60 }[unit as 'H'] ?? 0);
    }
    return minutes;
  }
  let minutes = 0;
  let found = false;
  for (const [, n, unit] of trimmed.matchAll(DURATION_PART)) {
    found = true;
    const u = (unit as string).toLowerCase();
    const factor = /^d|^t/.test(u) ? 1440 : /^h|^st/.test(u) ? 60 : /^s/.test(u) ? 1 / 60 : 1;
    minutes += Number(n) * factor;
  }
  return found ? minutes : null;
}

/** ISO 8601 duration of a number of minutes (`PT1H30M`). */
export function isoDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = Math.round(minutes - hours * 60);
  return `PT${hours ? `${hours}H` : ''}${rest || !hours ? `${rest}M` : ''}`;
}
