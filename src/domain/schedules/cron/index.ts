/**
 * The time core of schedules (and of monitors' `frequency`): EventBridge cron expressions,
 * their next runs on croner, their descriptions, schedule text, time zones and `execute_at`.
 * Pure functions; no database, no transport.
 */
export { parseCronExpression, type CronExpression } from './cron-expression.js';
export { CRON_FIELDS, type CronFieldName } from './cron-fields.js';
export { nextRun, nextRuns, requireNextRun, type RunWindow } from './cron-runs.js';
export { assertMinInterval, formatDuration, minIntervalMs, type IntervalOptions } from './cron-interval.js';
export { describeCron } from './cron-description.js';
export { parseExecuteAt, type ExecuteAtOptions } from './execute-at.js';
export { localIso, parseTimezone } from './timezone.js';
export {
  convertScheduleText,
  parseScheduleText,
  type CronFromText,
  type TextConversion,
  type TextConversionOptions,
  type TextParse,
} from './text-to-cron.js';
