/**
 * The six fields of the AWS EventBridge cron dialect (`min hour dom month dow year`) and the
 * translation of one field into croner's syntax. AWS documents the dialect at
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-scheduled-rule-pattern.html;
 * where it is silent this follows Quartz, which it is derived from.
 */

export type CronFieldName = 'minutes' | 'hours' | 'day-of-month' | 'month' | 'day-of-week' | 'year';

export interface CronFieldSpec {
  readonly name: CronFieldName;
  readonly min: number;
  readonly max: number;
  /** Names standing for min, min + 1, …: JAN-DEC for months, SUN-SAT (1 = SUN) for days of the week. */
  readonly names?: readonly string[];
}

export const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
export const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

export const CRON_FIELDS: readonly CronFieldSpec[] = [
  { name: 'minutes', min: 0, max: 59 },
  { name: 'hours', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTH_NAMES },
  { name: 'day-of-week', min: 1, max: 7, names: DAY_NAMES },
  { name: 'year', min: 1970, max: 2199 },
];

/** A problem in one field; the expression parser prefixes the request field and the cron field. */
export class CronFieldError extends Error {}

function fail(problem: string): never {
  throw new CronFieldError(problem);
}

/**
 * One field in croner's 7-part syntax with `alternativeWeekdays` (1 = SUN): names become
 * numbers, `?` becomes `*`, a lone `L` in day-of-week becomes 7 (Saturday, as in Quartz), and
 * every step gets an explicit range (`0/15` → `0-59/15`; a step over `*` in years → `1970-2199/3`),
 * so a step starts where AWS starts it and croner's default stepping rules suffice. Wildcards and
 * steps keep their `*` or `/`: croner tells interval fields from fixed times by them (DST).
 * Throws {@link CronFieldError} naming what is wrong.
 */
export function renderField(text: string, spec: CronFieldSpec): string {
  const isDay = spec.name === 'day-of-month' || spec.name === 'day-of-week';
  if (text === '?') return isDay ? '*' : fail('? is only allowed in day-of-month or day-of-week');
  const items = text.split(',');
  if (items.some((item) => item === '')) fail(`"${text}" has an empty entry in its list`);
  if (items.length > 1) {
    for (const item of items) {
      if (item === '*') fail('* cannot be combined with other values');
      if (item === '?') fail('? must stand alone');
      if (standsAlone(item, spec)) fail(`${item} must stand alone, not in a list`);
    }
  }
  return items.map((item) => renderItem(item, spec)).join(',');
}

/**
 * The values a rendered numeric field allows, ascending: minutes, hours or years as
 * {@link renderField} writes them (`*`, numbers, `a-b`, `a-b/s`, lists).
 */
export function expandRendered(rendered: string, spec: CronFieldSpec): number[] {
  const values = new Set<number>();
  for (const item of rendered.split(',')) {
    const [range, step = '1'] = item.split('/') as [string, string?];
    const [from, to] = range === '*' ? [spec.min, spec.max] : range.split('-').map(Number);
    for (let v = from!; v <= (to ?? from!); v += Number(step)) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}

function standsAlone(item: string, spec: CronFieldSpec): boolean {
  if (spec.name === 'day-of-month') return item === 'L' || item.endsWith('W');
  return spec.name === 'day-of-week' && item === 'L';
}

function renderItem(item: string, spec: CronFieldSpec): string {
  if (item === '*') return '*';
  if (spec.name === 'day-of-month') {
    const special = renderDayOfMonthSpecial(item, spec);
    if (special !== null) return special;
  }
  if (spec.name === 'day-of-week') {
    const special = renderDayOfWeekSpecial(item, spec);
    if (special !== null) return special;
  }
  const parts = item.split('/');
  if (parts.length > 2) fail(`"${item}" has more than one /`);
  if (parts.length === 2) return renderStep(parts[0]!, parts[1]!, spec);
  const [from, to] = parseRange(item, spec);
  return from === to && !item.includes('-') ? String(from) : `${from}-${to}`;
}

/** `L` (last day), `LW` (last weekday), `15W` (weekday nearest the 15th, within the month). */
function renderDayOfMonthSpecial(item: string, spec: CronFieldSpec): string | null {
  if (item === 'L' || item === 'LW') return item;
  if (/^L-\d+$/.test(item)) fail(`${item} (days before the last day) is not supported; use L for the last day`);
  if (!item.endsWith('W')) return null;
  const day = item.slice(0, -1);
  if (!/^\d+$/.test(day)) fail(`W needs a single day before it, like 15W (got "${item}")`);
  return `${parseValue(day, spec)}W`;
}

/** `L` (Saturday), `5L` / `THUL` (last Thursday of the month), `6#3` / `FRI#3` (third Friday). */
function renderDayOfWeekSpecial(item: string, spec: CronFieldSpec): string | null {
  if (item === 'L') return '7';
  const hash = /^([^#]*)#(.*)$/.exec(item);
  if (hash) {
    const day = hash[1]!;
    if (day.includes('-') || day.includes('/') || day === '*' || day === '') {
      fail(`# needs a single day before it, like 6#3 (got "${item}")`);
    }
    if (!/^[1-5]$/.test(hash[2]!)) fail(`the occurrence after # must be 1-5 (got "${item}")`);
    return `${parseValue(day, spec)}#${hash[2]}`;
  }
  if (!item.endsWith('L')) return null;
  const day = item.slice(0, -1);
  if (day.includes('-') || day.includes('/') || day === '*') {
    fail(`L needs a single day before it, like 6L for the last Friday (got "${item}")`);
  }
  return `${parseValue(day, spec)}L`;
}

function renderStep(base: string, stepText: string, spec: CronFieldSpec): string {
  const span = spec.max - spec.min + 1;
  if (!/^\d+$/.test(stepText)) fail(`step "${stepText}" is not a number`);
  const step = Number(stepText);
  if (step < 1 || step > span) fail(`step ${step} must be between 1 and ${span}`);
  if (base === '*') return `${spec.min}-${spec.max}/${step}`;
  const [from, to] = parseRange(base, spec);
  return `${from}-${base.includes('-') ? to : spec.max}/${step}`;
}

/** A single value (as `[v, v]`) or an ascending range `a-b`. */
function parseRange(text: string, spec: CronFieldSpec): [number, number] {
  const parts = text.split('-');
  if (parts.length === 1) {
    const value = parseValue(text, spec);
    return [value, value];
  }
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') fail(`"${text}" is not a valid range`);
  const [fromText, toText] = parts as [string, string];
  const from = parseValue(fromText, spec);
  const to = parseValue(toText, spec);
  if (from > to) {
    const last = spec.names ? spec.names[spec.names.length - 1] : spec.max;
    const first = spec.names ? spec.names[0] : spec.min;
    fail(`range ${text} runs backwards; to wrap around write ${fromText}-${last},${first}-${toText}`);
  }
  return [from, to];
}

function parseValue(text: string, spec: CronFieldSpec): number {
  let value: number;
  if (/^\d+$/.test(text)) value = Number(text);
  else {
    const index = spec.names?.indexOf(text) ?? -1;
    if (index < 0) fail(misplacedSpecial(text, spec) ?? notAValue(text, spec));
    value = spec.min + index;
  }
  if (value < spec.min || value > spec.max) fail(`${value} is out of range ${spec.min}-${spec.max}`);
  return value;
}

function notAValue(text: string, spec: CronFieldSpec): string {
  const names = spec.names ? ` or a name (${spec.names[0]}-${spec.names[spec.names.length - 1]})` : '';
  return `"${text}" is not a number${names}`;
}

/** Says where `?`, `L`, `W` and `#` belong when one turns up elsewhere. */
function misplacedSpecial(text: string, spec: CronFieldSpec): string | null {
  if (text.includes('?')) return '? must stand alone, and only in day-of-month or day-of-week';
  if (text.includes('#')) return spec.name === 'day-of-week' ? null : '# is only allowed in day-of-week';
  const isDom = spec.name === 'day-of-month';
  if (/^\d*W$|^LW$/.test(text) && !isDom) return 'W is only allowed in day-of-month';
  if (!/^\d*L$/.test(text)) return null;
  if (isDom)
    return 'L takes no number in day-of-month: L alone is the last day (5L, the last Thursday, is day-of-week)';
  return spec.name === 'day-of-week' ? null : 'L is only allowed in day-of-month and day-of-week';
}
