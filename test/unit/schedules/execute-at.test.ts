import { describe, expect, it } from 'vitest';
import { parseExecuteAt, parseTimezone } from '../../../src/domain/schedules/cron/index.js';
import { validationError } from './validation-error.js';

const refusal = validationError;

describe('parseTimezone', () => {
  it.each([
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['America/New_York', 'America/New_York'],
    ['america/new_york', 'America/New_York'],
    [' Europe/Berlin ', 'Europe/Berlin'],
    // An alias stays as given: ICU would canonicalise it to Asia/Calcutta.
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['Australia/Lord_Howe', 'Australia/Lord_Howe'],
  ])('accepts %j as %j', (input, zone) => expect(parseTimezone(input)).toBe(zone));

  it.each([
    ['Mars/Olympus_Mons', 'expression_timezone: "Mars/Olympus_Mons" is not a known IANA time zone'],
    ['+05:30', 'expression_timezone: "+05:30" is not an IANA time zone id such as America/New_York'],
    ['GMT+5', 'expression_timezone: "GMT+5" is not a known IANA time zone'],
    ['', 'expression_timezone: must be an IANA time zone id such as Europe/Berlin or UTC'],
    [42, 'expression_timezone: must be an IANA time zone id such as Europe/Berlin or UTC'],
  ])('refuses %j', (input, detail) => {
    const err = refusal(() => parseTimezone(input));
    expect(err.detail).toBe(detail);
    expect(err.metadata).toEqual({ field: 'expression_timezone' });
  });
});

describe('parseExecuteAt', () => {
  const now = new Date('2025-06-01T12:00:00Z');
  const at = (input: unknown, timezone?: string) => parseExecuteAt(input, { now, timezone }).toISOString();

  it.each([
    ['2025-06-01T12:00:01Z', undefined, '2025-06-01T12:00:01.000Z'],
    ['2025-06-01T12:00:00.001Z', undefined, '2025-06-01T12:00:00.001Z'],
    ['2026-01-31T09:00:00Z', undefined, '2026-01-31T09:00:00.000Z'],
    ['2026-01-31t09:00:00z', undefined, '2026-01-31T09:00:00.000Z'],
    ['2026-01-31T09:00Z', undefined, '2026-01-31T09:00:00.000Z'],
    ['2026-01-31T10:00:00+01:00', undefined, '2026-01-31T09:00:00.000Z'],
    ['2026-01-31T03:30:00-0530', undefined, '2026-01-31T09:00:00.000Z'],
    ['2026-01-31T14:30:00+05', undefined, '2026-01-31T09:30:00.000Z'],
    ['2026-01-31T09:00:00.123456789Z', undefined, '2026-01-31T09:00:00.123Z'],
    ['2028-02-29T00:00:00Z', undefined, '2028-02-29T00:00:00.000Z'],
    // No offset: UTC by default, else the wall clock of the time zone given.
    ['2026-01-31T09:00:00', undefined, '2026-01-31T09:00:00.000Z'],
    ['2026-01-31T09:00', 'Europe/Berlin', '2026-01-31T08:00:00.000Z'],
    ['2026-07-31T09:00', 'Europe/Berlin', '2026-07-31T07:00:00.000Z'],
    ['2026-01-31T09:00', 'Asia/Kolkata', '2026-01-31T03:30:00.000Z'],
    // An offset wins over the time zone.
    ['2026-01-31T09:00:00Z', 'Asia/Kolkata', '2026-01-31T09:00:00.000Z'],
    // 02:30 on 8 March 2026 does not exist in New York: moved forward by the gap, to 03:30 EDT.
    ['2026-03-08T02:30', 'America/New_York', '2026-03-08T07:30:00.000Z'],
    // 01:30 on 1 November 2026 happens twice in New York: the first, EDT.
    ['2026-11-01T01:30', 'America/New_York', '2026-11-01T05:30:00.000Z'],
  ])('reads %j (time zone %s) as %s', (input, timezone, iso) => expect(at(input, timezone)).toBe(iso));

  it.each([
    ['2025-06-01T12:00:00Z', 'execute_at: 2025-06-01T12:00:00Z is not in the future (now is 2025-06-01T12:00:00.000Z)'],
    ['2020-01-01T00:00:00Z', 'execute_at: 2020-01-01T00:00:00Z is not in the future (now is 2025-06-01T12:00:00.000Z)'],
    ['2026-01-31', 'execute_at: "2026-01-31" needs a time as well as a date, for example 2026-01-31T09:00:00Z'],
    ['tomorrow', 'execute_at: "tomorrow" is not an ISO 8601 datetime, for example 2026-01-31T09:00:00Z'],
    [
      '2026-01-31 09:00:00Z',
      'execute_at: "2026-01-31 09:00:00Z" is not an ISO 8601 datetime, for example 2026-01-31T09:00:00Z',
    ],
    [
      '31/01/2026 09:00',
      'execute_at: "31/01/2026 09:00" is not an ISO 8601 datetime, for example 2026-01-31T09:00:00Z',
    ],
    ['2026-13-01T00:00:00Z', 'execute_at: "2026-13-01T00:00:00Z" has no month 13'],
    ['2027-02-29T00:00:00Z', 'execute_at: "2027-02-29T00:00:00Z" names day 29, which does not exist in that month'],
    ['2026-04-31T00:00:00Z', 'execute_at: "2026-04-31T00:00:00Z" names day 31, which does not exist in that month'],
    ['2026-01-31T24:00:00Z', 'execute_at: "2026-01-31T24:00:00Z" has hour 24; hours run 00-23'],
    ['2026-01-31T09:60:00Z', 'execute_at: "2026-01-31T09:60:00Z" has minute 60; minutes run 00-59'],
    ['2026-01-31T09:00:60Z', 'execute_at: "2026-01-31T09:00:60Z" has second 60; seconds run 00-59'],
    ['2026-01-31T09:00:00+24:00', 'execute_at: "2026-01-31T09:00:00+24:00" has an invalid UTC offset +24:00'],
    [1767171600000, 'execute_at: must be an ISO 8601 datetime such as 2026-01-31T09:00:00Z'],
  ])('refuses %j', (input, detail) => {
    const err = refusal(() => parseExecuteAt(input, { now }));
    expect(err.detail).toBe(detail);
    expect(err.metadata).toEqual({ field: 'execute_at' });
  });

  it('refuses an unknown time zone for a datetime without offset', () => {
    expect(refusal(() => parseExecuteAt('2026-01-31T09:00', { now, timezone: 'Nowhere/City' })).detail).toBe(
      'expression_timezone: "Nowhere/City" is not a known IANA time zone',
    );
  });

  it('names the field it is given', () => {
    expect(refusal(() => parseExecuteAt('soon', { now, field: 'run_at' })).detail).toMatch(/^run_at: /);
  });
});
