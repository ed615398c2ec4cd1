import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, type Row } from '../../db/sql.js';
import { Schedule, ScheduleRun } from './schedule.entity.js';

const date = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));
const maybeDate = (v: unknown): Date | null => (v === null || v === undefined ? null : date(v));

/** A `schedules` row as a Schedule. */
export function scheduleOf(row: Row): Schedule {
  return Object.assign(new Schedule(), {
    id: row.id as string,
    teamId: row.team_id as string,
    type: row.type as Schedule['type'],
    method: row.method as Schedule['method'],
    endpoint: row.endpoint as string,
    payload: (row.payload as Record<string, unknown> | null) ?? {},
    cronExpression: (row.cron_expression as string | null) ?? null,
    executeAt: maybeDate(row.execute_at),
    expressionTimezone: row.expression_timezone as string,
    text: (row.text as string | null) ?? null,
    description: (row.description as string | null) ?? null,
    state: row.state as Schedule['state'],
    nextRunAt: maybeDate(row.next_run_at),
    lastRunId: (row.last_run_id as string | null) ?? null,
    runsCount: row.runs_count as number,
    createdAt: date(row.created_at),
    deletedAt: maybeDate(row.deleted_at),
  });
}

/** A `schedule_runs` row as a ScheduleRun. */
export function scheduleRunOf(row: Row): ScheduleRun {
  return Object.assign(new ScheduleRun(), {
    id: row.id as string,
    scheduleId: row.schedule_id as string,
    teamId: row.team_id as string,
    scheduledFor: date(row.scheduled_for),
    startedAt: date(row.started_at),
    finishedAt: maybeDate(row.finished_at),
    status: row.status as ScheduleRun['status'],
    attempts: row.attempts as number,
    missedRuns: row.missed_runs as number,
    httpStatus: (row.http_status as number | null) ?? null,
    error: (row.error as string | null) ?? null,
    resourceId: (row.resource_id as string | null) ?? null,
    responseExcerpt: (row.response_excerpt as string | null) ?? null,
  });
}

/** The runs with these ids, by id. */
export async function runsById(em: EntityManager, ids: readonly (string | null)[]): Promise<Map<string, ScheduleRun>> {
  const wanted = ids.filter((id): id is string => id !== null);
  if (wanted.length === 0) return new Map();
  const rows = await exec(em, 'select * from schedule_runs where id in (?)', [wanted]);
  return new Map(rows.map((r) => [r.id as string, scheduleRunOf(r)]));
}

/** The job id of a schedule's firing at `due`: the queue's unique key, so a due time is queued once. */
export const fireJobId = (scheduleId: string, due: Date) => `${scheduleId}:${due.toISOString()}`;

export const FIRE_KIND = 'schedule.fire';

export interface FirePayload {
  scheduleId: string;
  /** ISO 8601: the due time this job fires. */
  due: string;
}
