import { describe, expect, it } from 'vitest';
import {
  assertMinInterval,
  describeCron,
  formatDuration,
  minIntervalMs,
  parseCronExpression,
  requireNextRun,
} from '../../../src/domain/schedules/cron/index.js';
import { validationError } from './validation-error.js';

const after = new Date('2025-01-01T00:00:00Z');
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

describe('minIntervalMs', () => {
  const rows: [string, number | null][] = [
    ['* * * * ? *', MINUTE],
    ['*/5 * * * ? *', 5 * MINUTE],
    ['0/10 * * * ? *', 10 * MINUTE],
    ['0/5 9-17 ? * MON-FRI *', 5 * MINUTE],
    ['0 * * * ? *', 60 * MINUTE],
    ['0 9,17 * * ? *', 8 * 60 * MINUTE],
    ['0 9 ? * MON-FRI *', DAY],
    // 23:00 Sunday, then 00:00 Monday.
    ['0 0,23 ? * 1,2 *', 60 * MINUTE],
    // 23:00 on the 31st, then 00:00 on the 1st of the next month.
    ['0 0,23 1,31 * ? *', 60 * MINUTE],
    // 23:55 on 31 December, then 00:00 on 1 January.
    ['0,55 0,23 1,31 1,12 ? *', 5 * MINUTE],
    // First Mondays are four or five weeks apart.
    ['0 9 ? * 2#1 *', 28 * DAY],
    ['0 0 1 1 ? *', 365 * DAY],
    ['0 12 29 2 ? *', 1461 * DAY],
    ['0,30 8 1 1 ? 2026', 30 * MINUTE],
    // Fewer than two runs left, or none at all.
    ['0 8 1 1 ? 2026', null],
    ['0 8 1 1 ? 2020', null],
    ['0 12 30 2 ? *', null],
  ];
  it.each(rows)('%s → %s ms', (expression, expected) => {
    expect(minIntervalMs(expression, { after })).toBe(expected);
  });

  it('counts only dates from the day of `after` on', () => {
    // Two runs a day apart in 2026, the first of them over by 2 January 2026.
    expect(minIntervalMs('0 8 1,2 1 ? 2026', { after })).toBe(DAY);
    expect(minIntervalMs('0 8 1,2 1 ? 2026', { after: new Date('2026-01-02T00:00:00Z') })).toBeNull();
  });
});

describe('assertMinInterval (monitors: at least 10 minutes apart)', () => {
  const check = (expression: string) =>
    assertMinInterval(parseCronExpression(expression, 'frequency'), { after, minimumMs: 10 * MINUTE }, 'frequency');

  it('accepts every 10 minutes and slower', () => {
    expect(() => check('0/10 * * * ? *')).not.toThrow();
    expect(() => check('0 9 ? * MON-FRI *')).not.toThrow();
    expect(() => check('0 8 1 1 ? 2026')).not.toThrow();
  });

  it('refuses anything more frequent, naming the field and the interval', () => {
    const refusal = (expression: string) => validationError(() => check(expression)).detail;
    expect(refusal('0/5 * * * ? *')).toBe(
      'frequency: runs as often as every 5 minutes; runs must be at least 10 minutes apart',
    );
    expect(refusal('* 9 * * ? *')).toBe(
      'frequency: runs as often as every 1 minute; runs must be at least 10 minutes apart',
    );
    expect(refusal('0,55 0,23 1,31 1,12 ? *')).toMatch(/every 5 minutes/);
  });
});

describe('formatDuration', () => {
  it.each([
    [MINUTE, '1 minute'],
    [10 * MINUTE, '10 minutes'],
    [90 * MINUTE, '90 minutes'],
    [120 * MINUTE, '2 hours'],
    [DAY, '1 day'],
    [1500, '1500 ms'],
  ])('%d → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('requireNextRun', () => {
  it('returns the first run', () => {
    const cron = parseCronExpression('0 9 ? * MON-FRI *');
    expect(requireNextRun(cron, { timezone: 'Europe/Berlin', after }).toISOString()).toBe('2025-01-01T08:00:00.000Z');
  });

  it('refuses a schedule whose years are over, or that matches no date', () => {
    expect(() => requireNextRun(parseCronExpression('0 9 1 1 ? 2020-2024'), { timezone: 'UTC', after })).toThrow(
      'cron_expression: 0 9 1 1 ? 2020-2024 has no run after 2025-01-01T00:00:00.000Z: its last year is 2024',
    );
    expect(() => requireNextRun(parseCronExpression('0 9 30 2 ? *'), { timezone: 'UTC', after })).toThrow(
      'cron_expression: 0 9 30 2 ? * never fires: no date matches it',
    );
  });
});

describe('describeCron (cronstrue, 1 = Sunday)', () => {
  const rows: [string, string][] = [
    ['0 9 ? * MON-FRI *', 'At 09:00 AM, Monday through Friday'],
    ['0 9 ? * 2-6 *', 'At 09:00 AM, Monday through Friday'],
    ['0 12 ? * 1 *', 'At 12:00 PM, only on Sunday'],
    ['0 12 ? * L *', 'At 12:00 PM, only on Saturday'],
    ['0/15 * * * ? *', 'Every 15 minutes'],
    ['30 18 ? * MON,THU *', 'At 06:30 PM, only on Monday and Thursday'],
    ['0 12 1 * ? *', 'At 12:00 PM, on day 1 of the month'],
    ['0 12 L * ? *', 'At 12:00 PM, on the last day of the month'],
    ['0 12 LW * ? *', 'At 12:00 PM, on the last weekday of the month'],
    ['0 12 15W * ? *', 'At 12:00 PM, on the weekday nearest day 15 of the month'],
    ['0 12 ? * 6#3 *', 'At 12:00 PM, on the third Friday of the month'],
    ['0 12 ? * 5L *', 'At 12:00 PM, on the last Thursday of the month'],
    ['0 9-17 ? * MON-FRI *', 'Every hour, between 09:00 AM and 05:00 PM, Monday through Friday'],
    ['0 0 1 1 ? 2025-2027', 'At 12:00 AM, on day 1 of the month, only in January, 2025 through 2027'],
  ];
  it.each(rows)('%s → %s', (expression, text) => {
    expect(describeCron(parseCronExpression(expression))).toBe(text);
  });
});
