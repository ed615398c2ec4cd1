import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

export type ScheduleType = 'recurring' | 'onetime';
/**
 * ENABLED until deleted, or until it has no run left (a one-time schedule after its run, a cron
 * whose years are over): then DELETED. ENABLED ⇄ PAUSED (no due time while paused).
 */
export type ScheduleState = 'ENABLED' | 'PAUSED' | 'DELETED';
export type ScheduleMethod = 'GET' | 'POST';
/** `running` while a worker calls the endpoint (a worker killed then leaves it for the next attempt). */
export type ScheduleRunStatus = 'running' | 'succeeded' | 'failed' | 'skipped';

/** A call of an endpoint, once (`execute_at`) or on a cron expression, as a team. */
export class Schedule {
  id!: string;
  teamId!: string;
  type!: ScheduleType;
  method!: ScheduleMethod;
  /** A short endpoint (`v1/scrapes`) or an absolute http(s) URL. */
  endpoint!: string;
  payload: Record<string, unknown> = {};
  cronExpression: string | null = null;
  executeAt: Date | null = null;
  expressionTimezone!: string;
  /** The natural-language text the cron expression was made from, when given. */
  text: string | null = null;
  /** What the cron expression means, in English. */
  description: string | null = null;
  state: ScheduleState = 'ENABLED';
  /** The next due time; null while paused and once the schedule has ended. */
  nextRunAt: Date | null = null;
  lastRunId: string | null = null;
  runsCount = 0;
  createdAt: Date = new Date();
  deletedAt: Date | null = null;
}

/** One firing of a schedule: one per due time. */
export class ScheduleRun {
  id!: string;
  scheduleId!: string;
  teamId!: string;
  scheduledFor!: Date;
  startedAt!: Date;
  finishedAt: Date | null = null;
  status!: ScheduleRunStatus;
  /** Workers that took this run (more than one: a worker died mid-call and another took over). */
  attempts = 1;
  /** Due times that passed while no worker ran, folded into this run instead of replayed. */
  missedRuns = 0;
  httpStatus: number | null = null;
  error: string | null = null;
  /** The resource a short endpoint created (a scrape's, batch's, crawl's id). */
  resourceId: string | null = null;
  /** The first 1 KB of the answer. */
  responseExcerpt: string | null = null;
}

export const ScheduleSchema = new EntitySchema<Schedule>({
  class: Schedule,
  tableName: 'schedules',
  indexes: [{ name: 'schedules_team_id_created_at_index', properties: ['teamId', 'createdAt'] }],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    type: { type: 'string', columnType: 'text' },
    method: { type: 'string', columnType: 'text' },
    endpoint: { type: 'string', columnType: 'text' },
    payload: columns.jsonb(),
    cronExpression: { type: 'text', nullable: true },
    executeAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    expressionTimezone: { type: 'string', columnType: 'text' },
    text: { type: 'text', nullable: true },
    description: { type: 'text', nullable: true },
    state: { type: 'string', columnType: 'text', default: 'ENABLED' },
    nextRunAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    lastRunId: { type: 'text', nullable: true },
    runsCount: { type: 'integer', default: 0 },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    deletedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});

export const ScheduleRunSchema = new EntitySchema<ScheduleRun>({
  class: ScheduleRun,
  tableName: 'schedule_runs',
  uniques: [{ name: 'schedule_runs_schedule_id_scheduled_for_unique', properties: ['scheduleId', 'scheduledFor'] }],
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    scheduleId: {
      kind: 'm:1',
      entity: () => Schedule,
      mapToPk: true,
      fieldName: 'schedule_id',
      deleteRule: 'cascade',
      columnType: 'text',
    },
    teamId: { type: 'string', columnType: 'text' },
    scheduledFor: { type: 'Date', columnType: 'timestamptz' },
    startedAt: { type: 'Date', columnType: 'timestamptz' },
    finishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    status: { type: 'string', columnType: 'text' },
    attempts: { type: 'integer', default: 1 },
    missedRuns: { type: 'integer', default: 0 },
    httpStatus: { type: 'integer', nullable: true },
    error: { type: 'text', nullable: true },
    resourceId: { type: 'text', nullable: true },
    responseExcerpt: { type: 'text', nullable: true },
  },
});
