import { invalidField } from './field-error.js';
import { instantOfWallTime, parseTimezone, wallTimeMs, type WallTime } from './timezone.js';

const EXAMPLE = '2026-01-31T09:00:00Z';
/** ISO 8601 extended format: date, `T`, time (seconds and fraction optional), optional offset. */
const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface ExecuteAtOptions {
  /** The instant `execute_at` must come after. */
  now: Date;
  /** Where a datetime without an offset is read; default UTC. */
  timezone?: string;
  /** The request field named in errors; default `execute_at`. */
  field?: string;
}

/**
 * Reads a one-time schedule's `execute_at`: a well-formed ISO 8601 datetime
 * (`2026-01-31T09:00:00Z`, `2026-01-31T10:00:00+01:00`, `2026-01-31T09:00`) that lies after
 * `now`. Without an offset it is a wall-clock time in `timezone` (a time the clocks skip is
 * moved forward by the gap, a repeated one is its first occurrence). Throws a 400
 * `validation_error` naming the field when it is malformed, names a date that does not exist
 * (30 February) or is not in the future.
 *
 * @example
 * parseExecuteAt('2026-03-01T09:00', { now: new Date(), timezone: 'Europe/Berlin' });
 * // → 2026-03-01T08:00:00.000Z
 */
export function parseExecuteAt(input: unknown, options: ExecuteAtOptions): Date {
  const field = options.field ?? 'execute_at';
  if (typeof input !== 'string') throw invalidField(field, `must be an ISO 8601 datetime such as ${EXAMPLE}`);
  const text = input.trim();
  const match = ISO_DATETIME.exec(text);
  if (!match) {
    const problem = ISO_DATE.test(text) ? 'needs a time as well as a date' : 'is not an ISO 8601 datetime';
    throw invalidField(field, `"${text.slice(0, 64)}" ${problem}, for example ${EXAMPLE}`);
  }
  const [, year, month, day, hour, minute, second = '0', fraction = '', offset] = match;
  const wall: WallTime = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
    millisecond: Number(fraction.padEnd(3, '0').slice(0, 3)),
  };
  const problem = wallTimeProblem(wall);
  if (problem) throw invalidField(field, `"${text}" ${problem}`);
  const instant =
    offset === undefined ? zonedInstant(wall, options.timezone) : offsetInstant(wall, offset, field, text);
  if (instant <= options.now.getTime()) {
    throw invalidField(field, `${text} is not in the future (now is ${options.now.toISOString()})`);
  }
  return new Date(instant);
}

function zonedInstant(wall: WallTime, timezone: string | undefined): number {
  return timezone === undefined ? wallTimeMs(wall) : instantOfWallTime(wall, parseTimezone(timezone));
}

function offsetInstant(wall: WallTime, offset: string, field: string, text: string): number {
  if (offset.toUpperCase() === 'Z') return wallTimeMs(wall);
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2) || '0');
  if (hours > 23 || minutes > 59) throw invalidField(field, `"${text}" has an invalid UTC offset ${offset}`);
  const sign = offset.startsWith('-') ? -1 : 1;
  return wallTimeMs(wall) - sign * (hours * 60 + minutes) * 60_000;
}

function wallTimeProblem(wall: WallTime): string | null {
  if (wall.month < 1 || wall.month > 12) return `has no month ${wall.month}`;
  const daysInMonth = new Date(Date.UTC(2000, wall.month, 0)).getUTCDate();
  const leap = wall.year % 4 === 0 && (wall.year % 100 !== 0 || wall.year % 400 === 0);
  const lastDay = wall.month === 2 && !leap ? 28 : daysInMonth;
  if (wall.day < 1 || wall.day > lastDay) return `names day ${wall.day}, which does not exist in that month`;
  if (wall.hour > 23) return `has hour ${wall.hour}; hours run 00-23`;
  if (wall.minute > 59) return `has minute ${wall.minute}; minutes run 00-59`;
  if (wall.second > 59) return `has second ${wall.second}; seconds run 00-59`;
  return null;
}
