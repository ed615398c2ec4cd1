import type {
  Schedule,
  ScheduleMethod,
  ScheduleRun,
  ScheduleRunStatus,
  ScheduleState,
  ScheduleType,
} from './schedule.entity.js';

/** One firing as both transports show it. */
export interface ScheduleRunView {
  id: string;
  scheduleId: string;
  /** The due time this run is for (ISO 8601 UTC). */
  scheduledFor: string;
  startedAt: string;
  finishedAt: string | null;
  status: ScheduleRunStatus;
  /** Due times missed while no worker ran, folded into this run. */
  missedRuns: number;
  attempts: number;
  /** The endpoint's HTTP status (a short endpoint's: the status its route answers with). */
  httpStatus: number | null;
  error: string | null;
  /** What a short endpoint created (`scrape_…`, `batch_…`). */
  resourceId: string | null;
  /** The first 1 KB of the answer. */
  responseExcerpt: string | null;
}

/** A schedule as both transports show it (REST in the spec's snake_case, GraphQL as is). */
export interface ScheduleView {
  id: string;
  type: ScheduleType;
  method: ScheduleMethod;
  endpoint: string;
  payload: Record<string, unknown>;
  cronExpression: string | null;
  executeAt: string | null;
  expressionTimezone: string;
  text: string | null;
  description: string | null;
  state: ScheduleState;
  nextRunAt: string | null;
  lastRun: ScheduleRunView | null;
  /** ISO 8601 UTC (the spec's Schedule.created is a datetime string). */
  created: string;
}

export interface ScheduleRunsPage {
  data: ScheduleRunView[];
  hasMore: boolean;
  nextCursor: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function scheduleRunView(run: ScheduleRun): ScheduleRunView {
  return {
    id: run.id,
    scheduleId: run.scheduleId,
    scheduledFor: run.scheduledFor.toISOString(),
    startedAt: run.startedAt.toISOString(),
    finishedAt: iso(run.finishedAt),
    status: run.status,
    missedRuns: run.missedRuns,
    attempts: run.attempts,
    httpStatus: run.httpStatus,
    error: run.error,
    resourceId: run.resourceId,
    responseExcerpt: run.responseExcerpt,
  };
}

export function scheduleView(schedule: Schedule, lastRun: ScheduleRun | null): ScheduleView {
  return {
    id: schedule.id,
    type: schedule.type,
    method: schedule.method,
    endpoint: schedule.endpoint,
    payload: schedule.payload,
    cronExpression: schedule.cronExpression,
    executeAt: iso(schedule.executeAt),
    expressionTimezone: schedule.expressionTimezone,
    text: schedule.text,
    description: schedule.description,
    state: schedule.state,
    nextRunAt: iso(schedule.nextRunAt),
    lastRun: lastRun ? scheduleRunView(lastRun) : null,
    created: schedule.createdAt.toISOString(),
  };
}
