import { refuse, type Draft } from './text-draft.js';
import { clause, type Clause } from './text-time-clauses.js';
import { AND, DAY, MONTH, OF_MONTH, ORDINAL, TO, dayNumber, monthNumber, ordinalNumber } from './text-vocabulary.js';

const NTH = '(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)';
const NTH_NUMBERS: Record<string, string> = { first: '1', second: '2', third: '3', fourth: '4', fifth: '5' };
const WEEKDAY_WORD = '(?:week|business\\s+|working\\s+|work)days?';
const DOM_ITEM = `(?:(?:last|first)\\s+${WEEKDAY_WORD}|last(?:\\s+day)?|${ORDINAL}|\\d{1,2})`;
const DAY_ITEM = `${DAY}(?:${TO}${DAY})?`;
const MONTH_ITEM = `${MONTH}(?:${TO}${MONTH})?`;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Every value from `from` to `to` on a circle of `size` values starting at 1: fri to mon wraps. */
function circularRange(from: number, to: number, size: number): number[] {
  const out: number[] = [];
  for (let v = from; ; v = (v % size) + 1) {
    out.push(v);
    if (v === to) return out;
  }
}

/** Items of a `monday, wednesday and friday` or `mon-fri` list, ranges expanded. */
function listValues(text: string, itemSource: string, valueOf: (word: string) => number | undefined, size: number) {
  const items = text.match(new RegExp(itemSource, 'g')) ?? [];
  return items.flatMap((item) => {
    const words = item.split(new RegExp(TO)).map((w) => valueOf(w.trim())!);
    return words.length === 1 ? words : circularRange(words[0]!, words[1]!, size);
  });
}

function addMonthDay(draft: Draft, item: string): void {
  if (/^last\s+(?:week|business|working|work)/.test(item)) return void draft.monthDays.push('LW');
  if (/^first\s+(?:week|business|working|work)/.test(item)) return void draft.monthDays.push('1W');
  if (/^last/.test(item)) return void draft.monthDays.push('L');
  const day = ordinalNumber(item);
  if (day === undefined || day < 1 || day > 31) refuse(`"${item}" is not a day of the month`);
  draft.monthDays.push(String(day));
}

/** Clauses naming days: weekdays, days of the month, dates, months and years. */
export const DAY_CLAUSES: readonly Clause[] = [
  {
    // `the first monday of the month`, `last friday of every month`, `first and third tuesday`.
    pattern: clause(`(?:(?:on|every)\\s+)?(?:the\\s+)?(${NTH}(?:${AND}(?:the\\s+)?${NTH})*)\\s+(${DAY})${OF_MONTH}`),
    kind: 'day',
    apply: (m, d) => {
      const day = dayNumber(m[2]!)!;
      for (const nth of m[1]!.match(new RegExp(NTH, 'g')) ?? []) {
        const k = NTH_NUMBERS[nth] ?? nth.charAt(0);
        d.weekdayTokens.push(nth === 'last' ? `${day}L` : `${day}#${k}`);
      }
    },
  },
  {
    // `on january 1st`, `every december 25`, `on 1 january`, `the 15th of march`.
    pattern: clause(
      `(?:(?:on|every)\\s+)?(?:the\\s+)?(?:(${MONTH})\\s+(\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?(${MONTH}))`,
    ),
    kind: 'day',
    apply: (m, d) => {
      const month = monthNumber(m[1] ?? m[4]!)!;
      const day = Number(m[2] ?? m[3]);
      if (day < 1 || day > DAYS_IN_MONTH[month - 1]!) refuse(`${m[0].trim()} is not a date`);
      d.months.add(month);
      d.monthDays.push(String(day));
    },
  },
  {
    // `on the 1st and 15th of every month`, `on the last day of the month`, `on day 10`.
    pattern: clause(
      `(?:(on|every)\\s+)?(the\\s+)?(day\\s+)?(${DOM_ITEM}(?:${AND}(?:the\\s+)?${DOM_ITEM})*)(?:\\s+days?)?${OF_MONTH}`,
    ),
    kind: 'day',
    apply: (m, d) => {
      const items = m[4]!.match(new RegExp(DOM_ITEM, 'g')) ?? [];
      // A bare number is a day only after `on`, `the` or `day`, or as an ordinal (`15th`).
      if (!m[1] && !m[2] && !m[3] && !items.every((item) => /\D/.test(item))) return false;
      for (const item of items) addMonthDay(d, item);
    },
  },
  {
    pattern: clause(`(?:(?:on|every|each|during|at)\\s+)?(?:the\\s+)?${WEEKDAY_WORD}`),
    kind: 'day',
    apply: (_m, d) => [2, 3, 4, 5, 6].forEach((day) => d.weekdays.add(day)),
  },
  {
    pattern: clause(`(?:(?:on|every|each|during|at|over)\\s+)?(?:the\\s+)?weekends?(?:\\s+days?)?`),
    kind: 'day',
    apply: (_m, d) => [1, 7].forEach((day) => d.weekdays.add(day)),
  },
  {
    // `every monday and thursday`, `on mon, wed, fri`, `monday to friday`, `from tue through thu`.
    pattern: clause(
      `(?:(?:on|every|each|from)\\s+)?(?:the\\s+)?${DAY_ITEM}(?:${AND}(?:(?:on|every)\\s+)?${DAY_ITEM})*`,
    ),
    kind: 'day',
    apply: (m, d) => listValues(m[0], DAY_ITEM, dayNumber, 7).forEach((day) => d.weekdays.add(day)),
  },
  {
    // `in january and july`, `every march`, `from april to september`, `of december`.
    pattern: clause(`(?:(?:in|of|every|each|during|from)\\s+)?${MONTH_ITEM}(?:${AND}${MONTH_ITEM})*`),
    apply: (m, d) => listValues(m[0], MONTH_ITEM, monthNumber, 12).forEach((month) => d.months.add(month)),
  },
  {
    // `in 2026`, `in 2026 and 2027`, `from 2026 to 2028`, `between 2026 and 2028`.
    pattern: clause(`(?:in|during|from|between)\\s+(\\d{4})(?:(${TO}|\\s+and\\s+)(\\d{4}))?`),
    apply: (m, d) => {
      const years = [m[1]!, m[3]].filter((y): y is string => y !== undefined).map(Number);
      if (years.some((y) => y < 1970 || y > 2199)) refuse('years must be between 1970 and 2199');
      const isRange = m[2] !== undefined && (!/and/.test(m[2]) || m[0].startsWith('between'));
      if (isRange && years[0]! > years[1]!) refuse(`${years[0]} to ${years[1]} runs backwards`);
      d.years.push(isRange ? `${years[0]}-${years[1]}` : years.join(','));
    },
  },
];
