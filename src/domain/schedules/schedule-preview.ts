import { localIso, nextRuns, parseExecuteAt } from './cron/index.js';
import type { Timing } from './schedule-timing.js';
import type { Schedule, ScheduleState, ScheduleType } from './schedule.entity.js';
import { SCHEDULE_LIMITS } from './schedule.schema.js';

/** One due time, as an instant and on the schedule's wall clock. */
export interface DueTimeView {
  /** ISO 8601 UTC. */
  at: string;
  /** ISO 8601 on the time zone's wall clock, with its offset then (`2026-03-08T03:00:00-04:00`). */
  local: string;
}

/** The next due times of a schedule, or of a timing not saved (both transports show it). */
export interface SchedulePreviewView {
  /** The schedule's id; null for a timing not saved. */
  scheduleId: string | null;
  /** The schedule's state; null for a timing not saved. */
  state: ScheduleState | null;
  type: ScheduleType;
  cronExpression: string | null;
  /** ISO 8601 UTC (one-time). */
  executeAt: string | null;
  expressionTimezone: string;
  description: string | null;
  /** Earliest first; fewer than asked when the schedule has no more (one-time, its years over). */
  nextRuns: DueTimeView[];
}

/** What the due times are computed from: a schedule's timing. */
type TimingOf = Pick<Timing, 'type' | 'cronExpression' | 'executeAt' | 'timezone'>;

/** Up to `count` due times strictly after `after`, earliest first (croner: DST as docs/schedules.md says). */
export function upcomingDueTimes(timing: TimingOf, after: Date, count: number): Date[] {
  if (timing.type === 'onetime') return timing.executeAt && timing.executeAt > after ? [timing.executeAt] : [];
  return nextRuns(timing.cronExpression!, { timezone: timing.timezone, after, count });
}

/** `after` as a request gives it (without an offset: on the time zone's wall clock); null when absent. */
export function parseAfter(after: string | undefined, timezone: string): Date | null {
  if (after === undefined) return null;
  return parseExecuteAt(after, { now: new Date(-8.64e15), timezone, field: 'after' });
}

/**
 * The due times a saved schedule has ahead: an enabled one's `next_run_at` (even when it is
 * overdue: it fires once when a worker comes) and those after it; a paused one's, were it
 * resumed now; none for a deleted one. Only those after `after` when given.
 */
export function scheduleDueTimes(
  schedule: Schedule,
  options: { now: Date; after: Date | null; count: number },
): Date[] {
  const timing = { ...schedule, timezone: schedule.expressionTimezone };
  const { after, count } = options;
  if (schedule.state === 'PAUSED') return upcomingDueTimes(timing, max(options.now, after), count);
  if (schedule.state !== 'ENABLED' || schedule.nextRunAt === null) return [];
  const next = schedule.nextRunAt;
  const first = after === null || next > after ? [next] : [];
  return [...first, ...upcomingDueTimes(timing, max(max(options.now, next), after), count - first.length)];
}

export function previewView(
  timing: TimingOf & Pick<Timing, 'description'>,
  dueTimes: Date[],
  schedule: Pick<Schedule, 'id' | 'state'> | null = null,
): SchedulePreviewView {
  return {
    scheduleId: schedule?.id ?? null,
    state: schedule?.state ?? null,
    type: timing.type,
    cronExpression: timing.cronExpression,
    executeAt: timing.executeAt?.toISOString() ?? null,
    expressionTimezone: timing.timezone,
    description: timing.description,
    nextRuns: dueTimes.map((at) => ({ at: at.toISOString(), local: localIso(at, timing.timezone) })),
  };
}

export const previewCount = (count: number | undefined) => count ?? SCHEDULE_LIMITS.preview.default;

function max(a: Date, b: Date | null): Date {
  return b !== null && b > a ? b : a;
}
