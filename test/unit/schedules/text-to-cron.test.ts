import { describe, expect, it } from 'vitest';
import {
  convertScheduleText,
  parseCronExpression,
  parseScheduleText,
  type CronFromText,
} from '../../../src/domain/schedules/cron/index.js';
import { rejectedValidation } from './validation-error.js';

// [phrase, EventBridge cron expression]
const UNDERSTOOD: [string, string][] = [
  // Minute and hour intervals.
  ['every minute', '* * * * ? *'],
  ['every 5 minutes', '0/5 * * * ? *'],
  ['every 15 minutes', '0/15 * * * ? *'],
  ['every ten minutes', '0/10 * * * ? *'],
  ['every 30 mins', '0/30 * * * ? *'],
  ['every 20m', '0/20 * * * ? *'],
  ['every half hour', '0/30 * * * ? *'],
  ['every quarter of an hour', '0/15 * * * ? *'],
  ['twice an hour', '0/30 * * * ? *'],
  ['hourly', '0 * * * ? *'],
  ['every hour', '0 * * * ? *'],
  ['once an hour', '0 * * * ? *'],
  ['every 2 hours', '0 0/2 * * ? *'],
  ['every other hour', '0 0/2 * * ? *'],
  ['every 6 hours', '0 0/6 * * ? *'],
  ['every 120 minutes', '0 0/2 * * ? *'],
  ['every hour at :30', '30 * * * ? *'],
  ['at 15 minutes past every hour', '15 * * * ? *'],
  ['every hour on the half hour', '30 * * * ? *'],
  // Days and times.
  ['daily', '0 0 * * ? *'],
  ['every day', '0 0 * * ? *'],
  ['every 24 hours', '0 0 * * ? *'],
  ['daily at 6', '0 6 * * ? *'],
  ['at 8:15 every day', '15 8 * * ? *'],
  ['every day at 9am', '0 9 * * ? *'],
  ['Every day at 9 A.M.', '0 9 * * ? *'],
  ['at 9:30 pm', '30 21 * * ? *'],
  ['at 18:30', '30 18 * * ? *'],
  ['at noon', '0 12 * * ? *'],
  ['every day at midnight', '0 0 * * ? *'],
  ['every day at 12am', '0 0 * * ? *'],
  ['every day at 12pm', '0 12 * * ? *'],
  ["every day at 7 o'clock in the evening", '0 19 * * ? *'],
  ['every evening at 7', '0 19 * * ? *'],
  ['every morning at 7:30', '30 7 * * ? *'],
  ['nightly at 11', '0 23 * * ? *'],
  ['every night at 2', '0 2 * * ? *'],
  ['every day at 9.30', '30 9 * * ? *'],
  ['every weekday morning at 8', '0 8 ? * MON-FRI *'],
  ['monday evenings at 7', '0 19 ? * MON *'],
  ['every day at 9am and 5pm', '0 9,17 * * ? *'],
  ['every day at 9am, 1pm and 6pm', '0 9,13,18 * * ? *'],
  ['twice a day', '0 0,12 * * ? *'],
  ['twice daily', '0 0,12 * * ? *'],
  ['three times a day', '0 0,8,16 * * ? *'],
  ['4 times a day', '0 0,6,12,18 * * ? *'],
  ['twice a day at 8am and 8pm', '0 8,20 * * ? *'],
  // Weekdays.
  ['every weekday at 9am', '0 9 ? * MON-FRI *'],
  ['weekdays at 9', '0 9 ? * MON-FRI *'],
  ['every business day at 17:00', '0 17 ? * MON-FRI *'],
  ['on weekends at 10am', '0 10 ? * SUN,SAT *'],
  ['every monday', '0 0 ? * MON *'],
  ['every monday and thursday at 18:30', '30 18 ? * MON,THU *'],
  ['every monday, wednesday and friday at 8am', '0 8 ? * MON,WED,FRI *'],
  ['mon-fri at 7:30', '30 7 ? * MON-FRI *'],
  ['monday to friday at 8', '0 8 ? * MON-FRI *'],
  ['from tuesday through thursday at noon', '0 12 ? * TUE-THU *'],
  ['fridays at noon', '0 12 ? * FRI *'],
  ['at noon on fridays', '0 12 ? * FRI *'],
  ['every sunday at midnight', '0 0 ? * SUN *'],
  ['friday to monday at 6am', '0 6 ? * SUN,MON,FRI,SAT *'],
  ['weekly', '0 0 ? * SUN *'],
  ['once a week', '0 0 ? * SUN *'],
  ['weekly on tuesday at 3pm', '0 15 ? * TUE *'],
  // Hour windows.
  ['every hour between 9 and 17 on weekdays', '0 9-17 ? * MON-FRI *'],
  ['every hour from 9 to 5', '0 9-17 * * ? *'],
  ['every 15 minutes between 9am and 5pm on weekdays', '0/15 9-16 ? * MON-FRI *'],
  ['every 10 minutes during business hours', '0/10 9-16 * * ? *'],
  ['every 2 hours between 8 and 20', '0 8-20/2 * * ? *'],
  ['every hour between 22 and 2', '0 0-2,22,23 * * ? *'],
  ['every 30 minutes from 9am to 5pm', '0/30 9-16 * * ? *'],
  // Days of the month.
  ['monthly', '0 0 1 * ? *'],
  ['on the first of every month at noon', '0 12 1 * ? *'],
  ['on the 15th of every month', '0 0 15 * ? *'],
  ['on the 1st and 15th at 9', '0 9 1,15 * ? *'],
  ['on the last day of every month', '0 0 L * ? *'],
  ['on the last day of the month at 23:00', '0 23 L * ? *'],
  ['on the last weekday of the month at 17:00', '0 17 LW * ? *'],
  ['on the first business day of the month at 8am', '0 8 1W * ? *'],
  ['once a month on the 10th', '0 0 10 * ? *'],
  ['every month on day 5 at 6am', '0 6 5 * ? *'],
  ['first monday of the month', '0 0 ? * 2#1 *'],
  ['on the second tuesday of every month at 10am', '0 10 ? * 3#2 *'],
  ['last friday of the month at 16:00', '0 16 ? * 6L *'],
  ['first and third monday of the month at 9', '0 9 ? * 2#1,2#3 *'],
  // Months, quarters, years.
  ['every quarter', '0 0 1 1/3 ? *'],
  ['quarterly at 9am', '0 9 1 1/3 ? *'],
  ['every 3 months', '0 0 1 1/3 ? *'],
  ['every other month', '0 0 1 1/2 ? *'],
  ['twice a year', '0 0 1 1/6 ? *'],
  ['yearly', '0 0 1 1 ? *'],
  ['annually', '0 0 1 1 ? *'],
  ['yearly on march 15', '0 0 15 3 ? *'],
  ['on january 1st at midnight', '0 0 1 1 ? *'],
  ['every december 25 at 8am', '0 8 25 12 ? *'],
  ['on the 1st of july', '0 0 1 7 ? *'],
  ['in january and july on the 1st at 9am', '0 9 1 1,7 ? *'],
  ['every day in december at 8', '0 8 * 12 ? *'],
  ['every monday from april to september at 7am', '0 7 ? 4-9 MON *'],
  ['every day in 2026 at noon', '0 12 * * ? 2026'],
  ['run every 10 minutes', '0/10 * * * ? *'],
];

describe('parseScheduleText: phrases it understands', () => {
  it('has at least 60 phrases', () => expect(UNDERSTOOD.length).toBeGreaterThanOrEqual(60));

  it.each(UNDERSTOOD)('%j → %s', (phrase, cron) => {
    expect(parseScheduleText(phrase)).toEqual({ ok: true, cronExpression: cron });
    // Every answer is a valid expression of the dialect, already in normal form.
    expect(parseCronExpression(cron).expression).toBe(cron);
  });
});

describe('parseScheduleText: refused, with the reason', () => {
  const rows: [string, string][] = [
    ['every other day', 'every 2 days cannot be expressed in cron'],
    ['every 3 days', 'every 3 days cannot be expressed in cron'],
    ['every 2 weeks', 'every 2 weeks cannot be expressed in cron'],
    ['biweekly', '"biweekly" is ambiguous'],
    ['every 7 minutes', 'the step must divide 60'],
    ['every 90 minutes', 'every 90 minutes cannot be expressed in cron'],
    ['every 5 hours', 'the step must divide 24'],
    ['every 5 months', 'the step must divide 12'],
    ['5 times a day', 'cannot be spread evenly'],
    ['every 30 seconds', 'seconds are not supported'],
    ['twice a week', 'say which days'],
    ['at 9:15 and 17:45', 'times with different minutes (9:15, 17:45) need one schedule each'],
    ['every monday at 9am and every friday at 5pm', 'different times on different days need one schedule each'],
    ['every day between 9 and 17', 'say how often within those hours'],
    ['every 15 minutes at 9am', 'give either a repetition or times of day, not both'],
    ['daily weekly', 'the text says both daily and weekly'],
    ['on the 15th on mondays', 'cron cannot combine days of the month with days of the week'],
    ['monthly on monday', 'say which one in the month'],
    ['every year on the 15th', 'say which month'],
    ['on the 31st of february', 'on the 31st of february is not a date'],
    ['on the 15th and the last day', 'cannot be listed with other days'],
    ['at 13pm', '"13pm" is not a time of day'],
    ['at 25:00', '"25:00" is not a time of day'],
    ['every 0 minutes', 'every 0 is not a repetition'],
    ['every morning', 'say what time in the morning'],
    ['every hour between 9:30 and 17', 'a window of hours must start and end on the hour'],
  ];
  it.each(rows)('%j', (phrase, reason) => {
    const parsed = parseScheduleText(phrase);
    expect(parsed).toMatchObject({ ok: false, reason: 'refused' });
    expect(parsed.ok ? '' : parsed.message).toContain(reason);
  });
});

describe('parseScheduleText: not understood', () => {
  it.each([
    ['hello world', 'hello world'],
    ['every 15 minutes please', 'please'],
    ['every weekday except holidays', 'except holidays'],
    ['every 2 hours starting at 1am', 'starting at 1am'],
    ['', 'the text is empty'],
  ])('%j', (phrase, rest) => {
    const parsed = parseScheduleText(phrase);
    expect(parsed).toMatchObject({ ok: false, reason: 'not_understood' });
    expect(parsed.ok ? '' : parsed.message).toContain(rest);
  });
});

describe('convertScheduleText', () => {
  const refusal = rejectedValidation;

  it('returns the parser cron and its description, without asking the model', async () => {
    const model: CronFromText = () => Promise.reject(new Error('the model must not be asked'));
    await expect(convertScheduleText('every weekday at 9am', { model })).resolves.toEqual({
      cronExpression: '0 9 ? * MON-FRI *',
      description: 'At 09:00 AM, Monday through Friday',
      source: 'parser',
    });
  });

  it('asks the model only for text the parser does not understand, and checks its answer', async () => {
    const asked: string[] = [];
    const model: CronFromText = async (text) => {
      asked.push(text);
      return ' 0 9 * * ? * ';
    };
    await expect(convertScheduleText('each morning at nine sharp', { model })).resolves.toEqual({
      cronExpression: '0 9 * * ? *',
      description: 'At 09:00 AM',
      source: 'model',
    });
    expect(asked).toEqual(['each morning at nine sharp']);
  });

  it('does not ask the model about a refused text', async () => {
    const model: CronFromText = () => Promise.reject(new Error('the model must not be asked'));
    const err = await refusal(convertScheduleText('every other day', { model }));
    expect(err.detail).toMatch(/^text: every 2 days cannot be expressed in cron/);
  });

  it('400s when neither understands, saying whether a model was asked', async () => {
    expect((await refusal(convertScheduleText('whenever it rains'))).detail).toBe(
      'text: not understood (could not understand "whenever it rains") by the parser and no model is configured; try phrases like "every 15 minutes", "every weekday at 9am", "on the first of every month at noon"',
    );
    const err = await refusal(convertScheduleText('whenever it rains', { model: async () => null }));
    expect(err.detail).toMatch(
      /^text: not understood \(could not understand "whenever it rains"\) by the parser nor by the model;/,
    );
  });

  it('400s when the model answers with something that is not a valid expression', async () => {
    const err = await refusal(convertScheduleText('whenever it rains', { model: async () => '0 9 * * *' }));
    expect(err.detail).toBe(
      'text: not understood (could not understand "whenever it rains"); the model answered "0 9 * * *", which is not a valid cron expression',
    );
  });

  it('refuses what is not text, and names the field it is given', async () => {
    expect((await refusal(convertScheduleText(undefined))).detail).toBe('text: must be a non-empty string');
    expect((await refusal(convertScheduleText('x'.repeat(301)))).detail).toBe('text: is longer than 300 characters');
    const err = await refusal(convertScheduleText('every other week', { field: 'frequency' }));
    expect(err.detail).toMatch(/^frequency: /);
    expect(err.metadata).toEqual({ field: 'frequency' });
  });
});
