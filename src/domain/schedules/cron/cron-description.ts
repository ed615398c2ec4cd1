import cronstrue from 'cronstrue';
import type { CronExpression } from './cron-expression.js';

/**
 * A human description of a valid expression, in English: `0 9 ? * MON-FRI *` → "At 09:00 AM,
 * Monday through Friday". cronstrue reads 7 fields as `sec min hour dom month dow year`, so a
 * zero seconds field goes in front; `dayOfWeekStartIndexZero: false` makes 1 = Sunday, as in
 * EventBridge. The time zone is the caller's to add.
 */
export function describeCron(cron: CronExpression): string {
  return cronstrue.toString(`0 ${cron.expression}`, {
    dayOfWeekStartIndexZero: false,
    throwExceptionOnParseError: true,
    use24HourTimeFormat: false,
  });
}
