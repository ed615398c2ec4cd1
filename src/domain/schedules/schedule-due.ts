import { nextRun, nextRuns } from './cron/index.js';
import type { Schedule } from './schedule.entity.js';

/** Due times counted per step when a worker comes back after missing many. */
const MISSED_CHUNK = 1000;
/** Missed due times counted at most (a minutely schedule down for two years). */
const MISSED_CAP = 1_000_000;

/**
 * When a schedule's run for `due` fires at `now`: how many later due times have passed too
 * (`missed`: fired as this one run, never replayed), and the next due time, the first one after
 * `now`; null when the schedule has none left (one-time, or its years are over).
 *
 * @example
 * dueTimesAfter({ type: 'recurring', cronExpression: '* * * * ? *', expressionTimezone: 'UTC' },
 *   new Date('2026-01-01T10:00:00Z'), new Date('2026-01-01T10:03:30Z'));
 * // → { missed: 3, next: 2026-01-01T10:04:00Z }
 */
export function dueTimesAfter(
  schedule: Pick<Schedule, 'type' | 'cronExpression' | 'expressionTimezone'>,
  due: Date,
  now: Date,
): { missed: number; next: Date | null } {
  if (schedule.type === 'onetime' || schedule.cronExpression === null) return { missed: 0, next: null };
  const window = { timezone: schedule.expressionTimezone };
  let missed = 0;
  let after = due;
  for (;;) {
    // One at a time first: nearly always the first run after `due` lies ahead and that is all
    // (computing a thousand runs per firing cost 79 ms of CPU).
    const step = missed < 8 ? 1 : MISSED_CHUNK;
    const batch = nextRuns(schedule.cronExpression, { ...window, after, count: step });
    const passed = batch.filter((d) => d.getTime() <= now.getTime()).length;
    missed += passed;
    if (passed < batch.length) return { missed, next: batch[passed]! };
    if (batch.length < step) return { missed, next: null }; // its years are over
    if (missed >= MISSED_CAP) return { missed, next: nextRun(schedule.cronExpression, { ...window, after: now }) };
    after = batch.at(-1)!;
  }
}
