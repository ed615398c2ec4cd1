import { describe, expect, it } from 'vitest';
import { nextRun, parseCronExpression } from '../../../src/domain/schedules/cron/index.js';
import { validationError } from './validation-error.js';

const refusal = (input: unknown, field?: string) => validationError(() => parseCronExpression(input, field));

describe('parseCronExpression: accepted expressions and their croner patterns', () => {
  // [expression as written, normalized expression, croner 7-part pattern (seconds first, 1 = SUN)]
  const rows: [string, string, string][] = [
    ['0 9 ? * MON-FRI *', '0 9 ? * MON-FRI *', '0 0 9 * * 2-6 *'],
    ['  0  9 ?  * mon-fri  * ', '0 9 ? * MON-FRI *', '0 0 9 * * 2-6 *'],
    ['0/15 * * * ? *', '0/15 * * * ? *', '0 0-59/15 * * * * *'],
    ['*/5 * * * ? *', '*/5 * * * ? *', '0 0-59/5 * * * * *'],
    ['5/10 * * * ? *', '5/10 * * * ? *', '0 5-59/10 * * * * *'],
    ['10-50/20 9 * * ? *', '10-50/20 9 * * ? *', '0 10-50/20 9 * * * *'],
    ['0 12 29 2 ? *', '0 12 29 2 ? *', '0 0 12 29 2 * *'],
    ['0 12 L * ? *', '0 12 L * ? *', '0 0 12 L * * *'],
    ['0 12 LW * ? *', '0 12 LW * ? *', '0 0 12 LW * * *'],
    ['0 12 15W * ? *', '0 12 15W * ? *', '0 0 12 15W * * *'],
    ['0 12 ? * 6#3 *', '0 12 ? * 6#3 *', '0 0 12 * * 6#3 *'],
    ['0 12 ? * fri#3 *', '0 12 ? * FRI#3 *', '0 0 12 * * 6#3 *'],
    ['0 12 ? * 5L *', '0 12 ? * 5L *', '0 0 12 * * 5L *'],
    ['0 12 ? * THUL *', '0 12 ? * THUL *', '0 0 12 * * 5L *'],
    ['0 12 ? * L *', '0 12 ? * L *', '0 0 12 * * 7 *'],
    ['0 12 ? * 2#1,2#3 *', '0 12 ? * 2#1,2#3 *', '0 0 12 * * 2#1,2#3 *'],
    ['0 12 ? * SUN,SAT *', '0 12 ? * SUN,SAT *', '0 0 12 * * 1,7 *'],
    ['0 0 ? JAN,JUL MON *', '0 0 ? JAN,JUL MON *', '0 0 0 * 1,7 2 *'],
    ['0 0 1 1/3 ? *', '0 0 1 1/3 ? *', '0 0 0 1 1-12/3 * *'],
    ['0 0 1 JAN-MAR/2 ? *', '0 0 1 JAN-MAR/2 ? *', '0 0 0 1 1-3/2 * *'],
    ['0 0 1 1 ? 2025-2030', '0 0 1 1 ? 2025-2030', '0 0 0 1 1 * 2025-2030'],
    ['0 0 1 1 ? */50', '0 0 1 1 ? */50', '0 0 0 1 1 * 1970-2199/50'],
    ['0 0 1 1 ? 2025/10', '0 0 1 1 ? 2025/10', '0 0 0 1 1 * 2025-2199/10'],
    ['0 22-23,0-2 * * ? *', '0 22-23,0-2 * * ? *', '0 0 22-23,0-2 * * * *'],
    ['0 0 ? * 2-6/2 *', '0 0 ? * 2-6/2 *', '0 0 0 * * 2-6/2 *'],
    ['0 0 * * ? *', '0 0 * * ? *', '0 0 0 * * * *'],
    ['0 0 ? * * *', '0 0 ? * * *', '0 0 0 * * * *'],
    ['00 07 01 01 ? 2030', '00 07 01 01 ? 2030', '0 0 7 1 1 * 2030'],
  ];
  it.each(rows)('%j', (input, expression, pattern) => {
    const cron = parseCronExpression(input);
    expect(cron.expression).toBe(expression);
    expect(cron.fields).toEqual(expression.split(' '));
    expect(cron.pattern).toBe(pattern);
    // croner takes the rendering as it is (an expression whose years are over has no next run).
    expect(() => nextRun(cron, { timezone: 'UTC', after: new Date('2025-01-01T00:00:00Z') })).not.toThrow();
  });

  it('knows the last year a year field allows', () => {
    expect(parseCronExpression('0 0 1 1 ? *').lastYear).toBeNull();
    expect(parseCronExpression('0 0 1 1 ? 2025').lastYear).toBe(2025);
    expect(parseCronExpression('0 0 1 1 ? 2025-2030,2027').lastYear).toBe(2030);
    expect(parseCronExpression('0 0 1 1 ? 2025-2199/50').lastYear).toBe(2175);
    expect(parseCronExpression('0 0 1 1 ? */50').lastYear).toBe(2170);
  });
});

describe('parseCronExpression: refused expressions', () => {
  const rows: [string, string][] = [
    [
      '0 9 * * 1-5',
      'needs 6 fields (minutes hours day-of-month month day-of-week year), got 5: the AWS EventBridge dialect ends with a year field, for example 0 9 ? * MON-FRI *',
    ],
    [
      '0 0 9 ? * MON-FRI *',
      'needs 6 fields (minutes hours day-of-month month day-of-week year), got 7: there is no seconds field, for example 0 9 ? * MON-FRI *',
    ],
    [
      '0 9 ?',
      'needs 6 fields (minutes hours day-of-month month day-of-week year), got 3, for example 0 9 ? * MON-FRI *',
    ],
    ['60 9 * * ? *', 'minutes: 60 is out of range 0-59'],
    ['0 24 * * ? *', 'hours: 24 is out of range 0-23'],
    ['0 9 0 * ? *', 'day-of-month: 0 is out of range 1-31'],
    ['0 9 32 * ? *', 'day-of-month: 32 is out of range 1-31'],
    ['0 9 1 13 ? *', 'month: 13 is out of range 1-12'],
    ['0 9 ? * 8 *', 'day-of-week: 8 is out of range 1-7'],
    ['0 9 ? * 0 *', 'day-of-week: 0 is out of range 1-7'],
    ['0 9 1 1 ? 1969', 'year: 1969 is out of range 1970-2199'],
    ['0 9 1 1 ? 2200', 'year: 2200 is out of range 1970-2199'],
    ['0 9 * * * *', 'day-of-month and day-of-week are both set; one of them must be ? (0 9 * * ? *)'],
    ['0 9 * * MON *', 'day-of-month and day-of-week are both set; one of them must be ? (0 9 ? * MON *)'],
    ['0 9 15 * MON *', 'day-of-month 15 and day-of-week MON cannot be combined; one of them must be ?'],
    ['0 9 ? * ? *', 'day-of-month and day-of-week cannot both be ?: set one of them, for example 0 12 * * ? *'],
    ['? 9 * * ? *', 'minutes: ? is only allowed in day-of-month or day-of-week'],
    ['0 9 * ? ? *', 'month: ? is only allowed in day-of-month or day-of-week'],
    ['0 9 ?,1 * ? *', 'day-of-month: ? must stand alone'],
    ['0 9 ? * MON-FRU *', 'day-of-week: "FRU" is not a number or a name (SUN-SAT)'],
    ['0 9 1 JUNE ? *', 'month: "JUNE" is not a number or a name (JAN-DEC)'],
    ['0 nine * * ? *', 'hours: "NINE" is not a number'],
    ['-1 9 * * ? *', 'minutes: "-1" is not a valid range'],
    ['0 9 1,,2 * ? *', 'day-of-month: "1,,2" has an empty entry in its list'],
    ['0 9 *,1 * ? *', 'day-of-month: * cannot be combined with other values'],
    ['0 17-9 * * ? *', 'hours: range 17-9 runs backwards; to wrap around write 17-23,0-9'],
    ['0 9 ? * FRI-MON *', 'day-of-week: range FRI-MON runs backwards; to wrap around write FRI-SAT,SUN-MON'],
    ['0/0 * * * ? *', 'minutes: step 0 must be between 1 and 60'],
    ['0/61 * * * ? *', 'minutes: step 61 must be between 1 and 60'],
    ['0/x * * * ? *', 'minutes: step "X" is not a number'],
    ['0/5/5 * * * ? *', 'minutes: "0/5/5" has more than one /'],
    ['0 9 L,15 * ? *', 'day-of-month: L must stand alone, not in a list'],
    ['0 9 15W,20 * ? *', 'day-of-month: 15W must stand alone, not in a list'],
    ['0 9 L-3 * ? *', 'day-of-month: L-3 (days before the last day) is not supported; use L for the last day'],
    ['0 9 1-5W * ? *', 'day-of-month: W needs a single day before it, like 15W (got "1-5W")'],
    ['0 9 32W * ? *', 'day-of-month: 32 is out of range 1-31'],
    [
      '0 9 5L * ? *',
      'day-of-month: L takes no number in day-of-month: L alone is the last day (5L, the last Thursday, is day-of-week)',
    ],
    ['0 9 ? * 6#6 *', 'day-of-week: the occurrence after # must be 1-5 (got "6#6")'],
    ['0 9 ? * 6#0 *', 'day-of-week: the occurrence after # must be 1-5 (got "6#0")'],
    ['0 9 ? * 8#1 *', 'day-of-week: 8 is out of range 1-7'],
    ['0 9 ? * 2-6#1 *', 'day-of-week: # needs a single day before it, like 6#3 (got "2-6#1")'],
    ['0 9 ? * 2-6L *', 'day-of-week: L needs a single day before it, like 6L for the last Friday (got "2-6L")'],
    ['0 9 ? * L,2 *', 'day-of-week: L must stand alone, not in a list'],
    ['0 9 ? * 15W *', 'day-of-week: W is only allowed in day-of-month'],
    ['0 9 1#2 * ? *', 'day-of-month: # is only allowed in day-of-week'],
    ['L 9 * * ? *', 'minutes: L is only allowed in day-of-month and day-of-week'],
    ['0 9 * L ? *', 'month: L is only allowed in day-of-month and day-of-week'],
    ['0 9 * * ? 15W', 'year: W is only allowed in day-of-month'],
  ];
  it.each(rows)('%j', (input, problem) => {
    const err = refusal(input);
    expect(err.detail).toBe(`cron_expression: ${problem}`);
    expect(err.metadata).toEqual({ field: 'cron_expression' });
  });

  it('refuses what is not a non-empty string, and names the field it is given', () => {
    expect(refusal(undefined).detail).toBe('cron_expression: must be a non-empty string');
    expect(refusal('   ').detail).toBe('cron_expression: must be a non-empty string');
    expect(refusal(42).detail).toBe('cron_expression: must be a non-empty string');
    expect(refusal('0 9 * * * *', 'frequency').detail).toMatch(/^frequency: day-of-month and day-of-week/);
    expect(refusal(`0 9 ? * ${'1,'.repeat(200)}1 *`).detail).toBe('cron_expression: is longer than 256 characters');
  });
});
