import { describe, expect, it } from 'vitest';
import { nextRun, nextRuns, parseCronExpression } from '../../../src/domain/schedules/cron/index.js';

interface Row {
  expr: string;
  tz: string;
  after: string;
  /** Hand-checked firing instants in UTC. */
  runs: string[];
  /** The schedule has no run after the last one listed (its years are over). */
  ends: boolean;
}

const z = (minute: string) => `${minute}:00.000Z`;

/** `expression | time zone | after (UTC) | expected runs (UTC, to the minute)[ END]`. */
function row(line: string): Row {
  const [expr, tz, after, runs] = line.split(' | ') as [string, string, string, string];
  const instants = runs.split(' ').filter(Boolean);
  const ends = instants[instants.length - 1] === 'END';
  return { expr, tz, after: z(after), runs: (ends ? instants.slice(0, -1) : instants).map(z), ends };
}

/*
 * Expected instants were worked out by hand from the calendar (weekdays from 1 January 2025, a
 * Wednesday) and the time zone rules, then the local→UTC conversions cross-checked against
 * Python's zoneinfo. DST dates: New York 2025-03-09 02:00→03:00 and 2025-11-02 02:00→01:00;
 * Berlin 2025-03-30 02:00→03:00 and 2025-10-26 03:00→02:00; London 2025-03-30 01:00→02:00 and
 * 2025-10-26 02:00→01:00; Sydney 2025-10-05 02:00→03:00 and 2025-04-06 03:00→02:00; Lord Howe
 * 2025-10-05 02:00→02:30; São Paulo 2018-11-04 00:00→01:00.
 */
const ROWS: Row[] = [
  // Steps, lists, ranges, names (UTC).
  '0/15 * * * ? * | UTC | 2025-01-01T00:07 | 2025-01-01T00:15 2025-01-01T00:30 2025-01-01T00:45 2025-01-01T01:00',
  '*/5 * * * ? * | UTC | 2025-01-01T23:52 | 2025-01-01T23:55 2025-01-02T00:00 2025-01-02T00:05',
  '5/10 * * * ? * | UTC | 2025-01-01T00:00 | 2025-01-01T00:05 2025-01-01T00:15 2025-01-01T00:25',
  '10-50/20 9 * * ? * | UTC | 2025-01-01T00:00 | 2025-01-01T09:10 2025-01-01T09:30 2025-01-01T09:50 2025-01-02T09:10',
  '0 9,17 * * ? * | UTC | 2025-01-01T12:00 | 2025-01-01T17:00 2025-01-02T09:00 2025-01-02T17:00',
  '0 22-23,0-1 * * ? * | UTC | 2025-01-01T12:00 | 2025-01-01T22:00 2025-01-01T23:00 2025-01-02T00:00 2025-01-02T01:00 2025-01-02T22:00',
  // Fri 3 Jan → Mon 6, Tue 7.
  '0 9 ? * MON-FRI * | UTC | 2025-01-03T10:00 | 2025-01-06T09:00 2025-01-07T09:00',
  '0 9 ? * 2-6 * | UTC | 2025-01-03T10:00 | 2025-01-06T09:00 2025-01-07T09:00',
  // Wed 1 Jan → Thu 2, Mon 6, Thu 9.
  '30 18 ? * MON,THU * | UTC | 2025-01-01T00:00 | 2025-01-02T18:30 2025-01-06T18:30 2025-01-09T18:30',
  // 1 = Sunday: Sun 5 Jan, Sat 4 Jan.
  '0 12 ? * 1 * | UTC | 2025-01-01T00:00 | 2025-01-05T12:00 2025-01-12T12:00',
  '0 12 ? * 7 * | UTC | 2025-01-01T00:00 | 2025-01-04T12:00 2025-01-11T12:00',
  '0 12 ? * SUN,SAT * | UTC | 2025-01-01T00:00 | 2025-01-04T12:00 2025-01-05T12:00 2025-01-11T12:00',
  // Mondays in January and July: 27 Jan, then 7 and 14 July.
  '0 0 ? JAN,JUL MON * | UTC | 2025-01-25T00:00 | 2025-01-27T00:00 2025-07-07T00:00 2025-07-14T00:00',
  '0 12 1 * ? * | UTC | 2025-01-15T00:00 | 2025-02-01T12:00 2025-03-01T12:00',
  '0 0 1 1/3 ? * | UTC | 2025-02-01T00:00 | 2025-04-01T00:00 2025-07-01T00:00 2025-10-01T00:00 2026-01-01T00:00',
  '0 0 1 JAN-MAR/2 ? * | UTC | 2025-01-15T00:00 | 2025-03-01T00:00 2026-01-01T00:00',
  // Leap days.
  '0 12 29 2 ? * | UTC | 2025-01-01T00:00 | 2028-02-29T12:00 2032-02-29T12:00',
  '0 0 29 2 ? * | America/New_York | 2024-01-01T00:00 | 2024-02-29T05:00 2028-02-29T05:00',
  '0 12 L 2 ? * | America/New_York | 2024-01-01T00:00 | 2024-02-29T17:00 2025-02-28T17:00',
  // L, W, LW.
  '0 12 L * ? * | UTC | 2024-01-31T12:00 | 2024-02-29T12:00 2024-03-31T12:00 2024-04-30T12:00',
  // 31 May 2025 is a Saturday → Fri 30; 30 Jun a Monday; 31 Jul a Thursday; 31 Aug a Sunday → Fri 29.
  '0 12 LW * ? * | UTC | 2025-05-01T00:00 | 2025-05-30T12:00 2025-06-30T12:00 2025-07-31T12:00 2025-08-29T12:00',
  // 15 Jan is a Wednesday; 15 Feb and 15 Mar Saturdays → Friday 14th.
  '0 12 15W * ? * | UTC | 2025-01-01T00:00 | 2025-01-15T12:00 2025-02-14T12:00 2025-03-14T12:00',
  // 1 Feb and 1 Mar are Saturdays → Monday 3rd (never back into the month before); 1 Apr a Tuesday.
  '0 12 1W * ? * | UTC | 2025-02-01T00:00 | 2025-02-03T12:00 2025-03-03T12:00 2025-04-01T12:00',
  // 31W: June has no 31st, so nothing in June.
  '0 12 31W * ? * | UTC | 2025-05-01T00:00 | 2025-05-30T12:00 2025-07-31T12:00 2025-08-29T12:00',
  // #, nL.
  '0 12 ? * 6#3 * | UTC | 2025-01-01T00:00 | 2025-01-17T12:00 2025-02-21T12:00 2025-03-21T12:00',
  '0 12 ? * FRI#1 * | UTC | 2025-01-01T00:00 | 2025-01-03T12:00 2025-02-07T12:00 2025-03-07T12:00',
  '0 10 ? * 3#2 * | UTC | 2025-01-01T00:00 | 2025-01-14T10:00 2025-02-11T10:00 2025-03-11T10:00',
  // Fifth Monday: only March, June, September in 2025.
  '0 12 ? * 2#5 * | UTC | 2025-01-01T00:00 | 2025-03-31T12:00 2025-06-30T12:00 2025-09-29T12:00',
  '0 12 ? * 2#1,2#3 * | UTC | 2025-01-01T00:00 | 2025-01-06T12:00 2025-01-20T12:00 2025-02-03T12:00',
  '0 12 ? * 5L * | UTC | 2025-01-01T00:00 | 2025-01-30T12:00 2025-02-27T12:00 2025-03-27T12:00',
  '0 12 ? * L * | UTC | 2025-01-01T00:00 | 2025-01-04T12:00 2025-01-11T12:00',
  // Years: over, ending, stepped from 1970 as AWS steps them.
  '0 8 1 1 ? 2020-2021 | UTC | 2025-01-01T00:00 | END',
  '0 10 ? * 6L 2002-2005 | UTC | 2025-01-01T00:00 | END',
  '0 8 1 1 ? 2026,2030 | UTC | 2025-06-01T00:00 | 2026-01-01T08:00 2030-01-01T08:00 END',
  '15 10 ? * 6L 2025-2026 | UTC | 2026-10-01T00:00 | 2026-10-30T10:15 2026-11-27T10:15 2026-12-25T10:15 END',
  '0 0 ? * SUN 2025 | UTC | 2025-12-25T00:00 | 2025-12-28T00:00 END',
  '0 0 1 1 ? 2025-2199/50 | UTC | 2025-06-01T00:00 | 2075-01-01T00:00 2125-01-01T00:00 2175-01-01T00:00 END',
  '0 0 1 1 ? */50 | UTC | 2025-06-01T00:00 | 2070-01-01T00:00 2120-01-01T00:00 2170-01-01T00:00 END',
  // Asia/Kolkata, +05:30 all year.
  '0 9 * * ? * | Asia/Kolkata | 2025-01-01T00:00 | 2025-01-01T03:30 2025-01-02T03:30',
  '30 0 1 * ? * | Asia/Kolkata | 2025-01-01T00:00 | 2025-01-31T19:00 2025-02-28T19:00',
  // New York, spring forward: 02:30 does not exist on 9 March, so it fires once, at 03:00 EDT.
  '30 2 * * ? * | America/New_York | 2025-03-08T00:00 | 2025-03-08T07:30 2025-03-09T07:00 2025-03-10T06:30',
  '30 2 * * ? * | America/New_York | 2025-03-09T07:00 | 2025-03-10T06:30',
  '30 2,14 * * ? * | America/New_York | 2025-03-09T00:00 | 2025-03-09T07:00 2025-03-09T18:30',
  // 01:00 EST, then 02:00 (moved to 03:00) and 03:00 fire once together at 03:00 EDT.
  '0 1-3 * * ? * | America/New_York | 2025-03-09T00:00 | 2025-03-09T06:00 2025-03-09T07:00 2025-03-10T05:00',
  // Intervals skip the missing hour: 01:30 EST, 03:00 EDT, 03:30 EDT; every 2 hours: 00:00, (02:00 missing) 04:00, 06:00.
  '0/30 * * * ? * | America/New_York | 2025-03-09T06:15 | 2025-03-09T06:30 2025-03-09T07:00 2025-03-09T07:30',
  '0 0/2 * * ? * | America/New_York | 2025-03-09T04:30 | 2025-03-09T05:00 2025-03-09T08:00 2025-03-09T10:00',
  // New York, fall back: 01:30 happens twice on 2 November and fires once, on the first (EDT).
  '30 1 * * ? * | America/New_York | 2025-11-01T12:00 | 2025-11-02T05:30 2025-11-03T06:30',
  '30 1 * * ? * | America/New_York | 2025-11-02T05:30 | 2025-11-03T06:30',
  '30 1 * * ? * | America/New_York | 2025-11-02T06:00 | 2025-11-03T06:30',
  '0 1-3 * * ? * | America/New_York | 2025-11-02T00:00 | 2025-11-02T05:00 2025-11-02T07:00 2025-11-02T08:00',
  // Intervals fire on both occurrences: every real hour, every real half hour.
  '0 * * * ? * | America/New_York | 2025-11-02T04:30 | 2025-11-02T05:00 2025-11-02T06:00 2025-11-02T07:00',
  '0/30 1 * * ? * | America/New_York | 2025-11-02T04:00 | 2025-11-02T05:00 2025-11-02T05:30 2025-11-02T06:00 2025-11-02T06:30 2025-11-03T06:00',
  '0 0/2 * * ? * | America/New_York | 2025-11-02T03:30 | 2025-11-02T04:00 2025-11-02T07:00 2025-11-02T09:00',
  // Berlin.
  '30 2 * * ? * | Europe/Berlin | 2025-03-29T00:00 | 2025-03-29T01:30 2025-03-30T01:00 2025-03-31T00:30',
  '30 2 * * ? * | Europe/Berlin | 2025-10-25T00:00 | 2025-10-25T00:30 2025-10-26T00:30 2025-10-27T01:30',
  // London: 01:30 is the missing/repeated time.
  '30 1 * * ? * | Europe/London | 2025-03-29T00:00 | 2025-03-29T01:30 2025-03-30T01:00 2025-03-31T00:30',
  '30 1 * * ? * | Europe/London | 2025-10-25T00:00 | 2025-10-25T00:30 2025-10-26T00:30 2025-10-27T01:30',
  // Sydney (southern hemisphere): forward in October, back in April.
  '30 2 * * ? * | Australia/Sydney | 2025-10-03T00:00 | 2025-10-03T16:30 2025-10-04T16:00 2025-10-05T15:30',
  '30 2 * * ? * | Australia/Sydney | 2025-04-04T00:00 | 2025-04-04T15:30 2025-04-05T15:30 2025-04-06T16:30',
  // Thu 2 Oct → Fri 3 Oct 09:00 AEST (+10), Mon 6 Oct 09:00 AEDT (+11).
  '0 9 ? * MON-FRI * | Australia/Sydney | 2025-10-02T00:00 | 2025-10-02T23:00 2025-10-05T22:00',
  // Lord Howe moves 30 minutes: 02:15 on 5 October fires at 02:30 (+11).
  '15 2 * * ? * | Australia/Lord_Howe | 2025-10-03T00:00 | 2025-10-03T15:45 2025-10-04T15:30 2025-10-05T15:15',
  // São Paulo 2018: midnight did not exist on 4 November; it fired at 01:00 (-02).
  '0 0 * * ? * | America/Sao_Paulo | 2018-11-03T00:00 | 2018-11-03T03:00 2018-11-04T03:00 2018-11-05T02:00',
].map(row);

const label = (row: Row) => `${row.expr} in ${row.tz} after ${row.after}`;

describe('nextRuns: hand-checked firing instants', () => {
  it('has at least 40 expressions across time zones', () => {
    expect(new Set(ROWS.map((r) => `${r.expr}|${r.tz}`)).size).toBeGreaterThanOrEqual(40);
  });

  it.each(ROWS.map((r) => [label(r), r] as const))('%s', (_label, row) => {
    const count = row.runs.length + (row.ends ? 1 : 0);
    const runs = nextRuns(row.expr, { timezone: row.tz, after: new Date(row.after), count });
    expect(runs.map((d) => d.toISOString())).toEqual(row.runs);
  });

  it.each(ROWS.map((r) => [label(r), r] as const))('%s: nextRun walks the same runs', (_label, row) => {
    const cron = parseCronExpression(row.expr);
    let after: Date | null = new Date(row.after);
    const walked: string[] = [];
    for (let i = 0; i < row.runs.length && after; i++) {
      after = nextRun(cron, { timezone: row.tz, after });
      if (after) walked.push(after.toISOString());
    }
    expect(walked).toEqual(row.runs);
    if (row.ends) expect(nextRun(cron, { timezone: row.tz, after: after ?? new Date(row.after) })).toBeNull();
  });
});

describe('nextRuns: edges', () => {
  it('returns runs strictly after `after`, to the millisecond', () => {
    const window = (after: string) => ({ timezone: 'UTC', after: new Date(after), count: 1 });
    expect(nextRuns('0 12 * * ? *', window('2025-01-01T12:00:00.000Z'))[0]!.toISOString()).toBe(
      '2025-01-02T12:00:00.000Z',
    );
    expect(nextRuns('0 12 * * ? *', window('2025-01-01T11:59:59.999Z'))[0]!.toISOString()).toBe(
      '2025-01-01T12:00:00.000Z',
    );
    expect(nextRuns('0 12 * * ? *', window('2025-01-01T12:00:00.001Z'))[0]!.toISOString()).toBe(
      '2025-01-02T12:00:00.000Z',
    );
  });

  it('returns nothing for a count of 0 and refuses a count it cannot honour', () => {
    expect(nextRuns('0 12 * * ? *', { timezone: 'UTC', after: new Date(), count: 0 })).toEqual([]);
    expect(() => nextRuns('0 12 * * ? *', { timezone: 'UTC', after: new Date(), count: -1 })).toThrow(RangeError);
    expect(() => nextRuns('0 12 * * ? *', { timezone: 'UTC', after: new Date(), count: 10_001 })).toThrow(RangeError);
  });

  it('never fires for a date that does not exist', () => {
    expect(nextRun('0 12 30 2 ? *', { timezone: 'UTC', after: new Date('2025-01-01T00:00:00Z') })).toBeNull();
  });

  it('refuses an unknown time zone and an invalid expression with a 400', () => {
    const after = new Date('2025-01-01T00:00:00Z');
    expect(() => nextRun('0 12 * * ? *', { timezone: 'Mars/Olympus_Mons', after })).toThrow(
      'expression_timezone: "Mars/Olympus_Mons" is not a known IANA time zone',
    );
    expect(() => nextRun('0 12 * * * *', { timezone: 'UTC', after })).toThrow(/one of them must be \?/);
  });
});

describe('answers kept for reuse', () => {
  it('gives each caller dates of its own, and the same instants again', () => {
    const window = { timezone: 'Europe/Berlin', after: new Date('2025-03-29T12:00:00Z'), count: 2 };
    const first = nextRuns('30 2 * * ? *', window);
    first[0]!.setTime(0); // a caller changing its answer changes nobody else's
    expect(nextRuns('30 2 * * ? *', window).map((d) => d.toISOString())).toEqual([
      '2025-03-30T01:00:00.000Z', // 02:30 does not exist that night: 03:00 CEST
      '2025-03-31T00:30:00.000Z',
    ]);
    const next = nextRun('30 2 * * ? *', window)!;
    next.setTime(0);
    expect(nextRun('30 2 * * ? *', window)!.toISOString()).toBe('2025-03-30T01:00:00.000Z');
  });
});

describe('reusing a parsed expression', () => {
  it('answers each call from its own instant, whatever was asked before, per time zone', () => {
    const at = (iso: string) => new Date(iso);
    const noon = parseCronExpression('0 12 * * ? *');
    expect(nextRun(noon, { timezone: 'UTC', after: at('2025-06-02T13:00:00Z') })).toEqual(at('2025-06-03T12:00:00Z'));
    expect(nextRun('0 12 * * ? *', { timezone: 'Europe/Berlin', after: at('2025-06-02T13:00:00Z') })).toEqual(
      at('2025-06-03T10:00:00Z'),
    );
    // Earlier than the last question: not carried on from it.
    expect(nextRun(noon, { timezone: 'UTC', after: at('2025-01-01T00:00:00Z') })).toEqual(at('2025-01-01T12:00:00Z'));
    expect(nextRuns('0 12 * * ? *', { timezone: 'UTC', after: at('2025-01-01T00:00:00Z'), count: 2 })).toEqual([
      at('2025-01-01T12:00:00Z'),
      at('2025-01-02T12:00:00Z'),
    ]);
  });
});
