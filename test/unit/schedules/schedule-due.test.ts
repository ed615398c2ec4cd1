import { describe, expect, it } from 'vitest';
import { dueTimesAfter } from '../../../src/domain/schedules/schedule-due.js';

const recurring = (cronExpression: string, expressionTimezone = 'UTC') =>
  ({ type: 'recurring', cronExpression, expressionTimezone }) as const;
const at = (iso: string) => new Date(iso);

describe('dueTimesAfter: missed due times and the next one', () => {
  it.each([
    [
      'on time: nothing missed',
      recurring('* * * * ? *'),
      '2026-01-01T10:00:00Z',
      '2026-01-01T10:00:02Z',
      0,
      '2026-01-01T10:01:00.000Z',
    ],
    [
      'three minutes down',
      recurring('* * * * ? *'),
      '2026-01-01T10:00:00Z',
      '2026-01-01T10:03:30Z',
      3,
      '2026-01-01T10:04:00.000Z',
    ],
    [
      'exactly on a due time counts it',
      recurring('* * * * ? *'),
      '2026-01-01T10:00:00Z',
      '2026-01-01T10:02:00Z',
      2,
      '2026-01-01T10:03:00.000Z',
    ],
    [
      'a week of a minutely schedule',
      recurring('* * * * ? *'),
      '2026-01-01T00:00:00Z',
      '2026-01-08T00:00:30Z',
      10_080,
      '2026-01-08T00:01:00.000Z',
    ],
    [
      'daily, a day late',
      recurring('0 9 * * ? *'),
      '2026-01-01T09:00:00Z',
      '2026-01-02T10:00:00Z',
      1,
      '2026-01-03T09:00:00.000Z',
    ],
    [
      'weekdays over a weekend',
      recurring('0 9 ? * MON-FRI *'),
      '2026-01-02T09:00:00Z',
      '2026-01-05T08:00:00Z',
      0,
      '2026-01-05T09:00:00.000Z',
    ],
    [
      'New York 02:30 across spring forward',
      recurring('30 2 * * ? *', 'America/New_York'),
      '2026-03-07T07:30:00Z',
      '2026-03-07T07:30:01Z',
      0,
      '2026-03-08T07:00:00.000Z',
    ],
    ['years over', recurring('0 9 * * ? 2026'), '2026-12-31T09:00:00Z', '2026-12-31T09:00:01Z', 0, null],
    ['years over while down', recurring('0 9 * * ? 2026'), '2026-12-30T09:00:00Z', '2027-01-05T00:00:00Z', 1, null],
  ] as const)('%s', (_name, schedule, due, now, missed, next) => {
    const result = dueTimesAfter(schedule, at(due), at(now));
    expect(result.missed).toBe(missed);
    expect(result.next?.toISOString() ?? null).toBe(next);
  });

  it('one-time schedules have nothing after their run', () => {
    expect(
      dueTimesAfter(
        { type: 'onetime', cronExpression: null, expressionTimezone: 'UTC' },
        at('2026-01-01T00:00:00Z'),
        at('2026-02-01T00:00:00Z'),
      ),
    ).toEqual({ missed: 0, next: null });
  });
});
