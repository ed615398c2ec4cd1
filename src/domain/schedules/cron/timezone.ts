import { invalidField } from './field-error.js';

const MAX_LENGTH = 64;
/** `Area/Location` ids and the few single-word ones (`UTC`, `EST5EDT`); no raw offsets like `+05:30`. */
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const DAY_MS = 86_400_000;

/** One formatter per zone: building one costs far more than using it. Only valid zones are kept. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

/**
 * An IANA time zone id as the runtime's time zone database knows it (`America/New_York`,
 * `Asia/Kolkata`, `UTC`, `Etc/GMT+5`). Letter case is corrected when that is all that differs
 * (`utc` → `UTC`); aliases stay as given (ICU would turn `Asia/Kolkata` into `Asia/Calcutta`).
 * Throws a 400 `validation_error` naming `field` otherwise.
 */
export function parseTimezone(input: unknown, field = 'expression_timezone'): string {
  if (typeof input !== 'string' || input.trim() === '') {
    throw invalidField(field, 'must be an IANA time zone id such as Europe/Berlin or UTC');
  }
  const zone = input.trim();
  if (zone.length > MAX_LENGTH || !IANA_SHAPE.test(zone)) {
    throw invalidField(field, `"${zone.slice(0, MAX_LENGTH)}" is not an IANA time zone id such as America/New_York`);
  }
  let resolved: string;
  try {
    resolved = formatter(zone).resolvedOptions().timeZone;
  } catch {
    throw invalidField(field, `"${zone}" is not a known IANA time zone`);
  }
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

/** A date and time on the wall clock; month 1-12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** `wall` read as if it were UTC, in milliseconds; years below 100 stay years below 100. */
export function wallTimeMs(wall: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  date.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  return date.getTime();
}

/** How far `zone`'s wall clock is ahead of UTC at `instantMs`, in milliseconds. */
export function zoneOffsetMs(zone: string, instantMs: number): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(whole))) parts[part.type] = Number(part.value);
  const wall = wallTimeMs({
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
    millisecond: 0,
  });
  return wall - whole;
}

/**
 * An instant as ISO 8601 on `zone`'s wall clock, with that zone's offset at that instant
 * (`2026-03-08T03:00:00-04:00`): what a person in the zone reads, daylight saving included.
 */
export function localIso(instant: Date, zone: string): string {
  const offsetMs = zoneOffsetMs(zone, instant.getTime());
  const wall = new Date(instant.getTime() + offsetMs).toISOString().slice(0, 19);
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  const hhmm = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return `${wall}${offsetMs < 0 ? '-' : '+'}${hhmm}`;
}

/**
 * The instant a wall-clock time in `zone` names. A time that occurs twice (clocks set back)
 * is its earlier occurrence; a time that does not exist (clocks set forward) is moved forward
 * by the length of the gap (02:30 on a 02:00→03:00 night is 03:30), as RFC 5545 and
 * Temporal's default "compatible" disambiguation do.
 */
export function instantOfWallTime(wall: WallTime, zone: string): number {
  const wallMs = wallTimeMs(wall);
  const before = zoneOffsetMs(zone, wallMs - DAY_MS);
  const after = zoneOffsetMs(zone, wallMs + DAY_MS);
  const fits = [before, after]
    .map((offset) => wallMs - offset)
    .filter((instant) => zoneOffsetMs(zone, instant) === wallMs - instant);
  return fits.length > 0 ? Math.min(...fits) : wallMs - before;
}
