import { z } from 'zod';
import type { SchedulePreviewView } from './schedule-preview.js';
import type { ScheduleRunView, ScheduleRunsPage, ScheduleView } from './schedule.view.js';

export const ScheduleRunObject = z
  .looseObject({
    id: z.string(),
    schedule_id: z.string(),
    scheduled_for: z.string().describe('The due time (ISO 8601 UTC).'),
    started_at: z.string(),
    finished_at: z.string().nullable(),
    status: z.enum(['running', 'succeeded', 'failed', 'skipped']),
    missed_runs: z.number().int().describe('Due times missed while no worker ran, fired once as this run.'),
    attempts: z.number().int(),
    http_status: z.number().int().nullable(),
    error: z.string().nullable(),
    resource_id: z.string().nullable().describe('What a short endpoint created (scrape, batch, crawl, map id).'),
    response_excerpt: z.string().nullable().describe('The first 1 KB of the answer.'),
  })
  .meta({ id: 'ScheduleRun' });

export const ScheduleObject = z
  .looseObject({
    id: z.string(),
    schedule_id: z.string(),
    object: z.literal('schedule'),
    type: z.enum(['recurring', 'onetime']),
    method: z.enum(['GET', 'POST']),
    endpoint: z.string(),
    payload: z.record(z.string(), z.unknown()),
    cron_expression: z.string().nullable(),
    execute_at: z.string().nullable(),
    expression_timezone: z.string(),
    text: z.string().nullable(),
    description: z.string().nullable().describe('What the cron expression means, in English.'),
    state: z.enum(['ENABLED', 'PAUSED', 'DELETED']),
    next_run_at: z.string().nullable().describe('The next due time; null while paused and once ended.'),
    last_run: ScheduleRunObject.nullable(),
    created: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({ id: 'Schedule' });

export const ScheduleRunsObject = z
  .looseObject({
    data: z.array(ScheduleRunObject),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'ScheduleRunList' });

export function presentScheduleRun(run: ScheduleRunView): z.output<typeof ScheduleRunObject> {
  return {
    id: run.id,
    schedule_id: run.scheduleId,
    scheduled_for: run.scheduledFor,
    started_at: run.startedAt,
    finished_at: run.finishedAt,
    status: run.status,
    missed_runs: run.missedRuns,
    attempts: run.attempts,
    http_status: run.httpStatus,
    error: run.error,
    resource_id: run.resourceId,
    response_excerpt: run.responseExcerpt,
  };
}

export function presentSchedule(s: ScheduleView): z.output<typeof ScheduleObject> {
  return {
    id: s.id,
    schedule_id: s.id,
    object: 'schedule',
    type: s.type,
    method: s.method,
    endpoint: s.endpoint,
    payload: s.payload,
    cron_expression: s.cronExpression,
    execute_at: s.executeAt,
    expression_timezone: s.expressionTimezone,
    text: s.text,
    description: s.description,
    state: s.state,
    next_run_at: s.nextRunAt,
    last_run: s.lastRun ? presentScheduleRun(s.lastRun) : null,
    created: s.created,
  };
}

export const SchedulePreviewObject = z
  .looseObject({
    object: z.literal('schedule.preview'),
    schedule_id: z.string().nullable().describe('The schedule’s id; null for a timing not saved.'),
    state: z
      .enum(['ENABLED', 'PAUSED', 'DELETED'])
      .nullable()
      .describe('The schedule’s state; null for a timing not saved.'),
    type: z.enum(['recurring', 'onetime']),
    cron_expression: z.string().nullable().describe('Normalized (a `text` converted).'),
    execute_at: z.string().nullable(),
    expression_timezone: z.string(),
    description: z.string().nullable().describe('What the cron expression means, in English.'),
    next_runs: z
      .array(
        z.object({
          at: z.string().describe('ISO 8601 UTC.'),
          local: z.string().describe('ISO 8601 on the time zone’s wall clock, with its offset then.'),
        }),
      )
      .describe('Earliest first; fewer than asked when the schedule has no more.'),
  })
  .meta({ id: 'SchedulePreview' });

export function presentSchedulePreview(view: SchedulePreviewView): z.output<typeof SchedulePreviewObject> {
  return {
    object: 'schedule.preview',
    schedule_id: view.scheduleId,
    state: view.state,
    type: view.type,
    cron_expression: view.cronExpression,
    execute_at: view.executeAt,
    expression_timezone: view.expressionTimezone,
    description: view.description,
    next_runs: view.nextRuns,
  };
}

export function presentScheduleRuns(page: ScheduleRunsPage): z.output<typeof ScheduleRunsObject> {
  return { data: page.data.map(presentScheduleRun), has_more: page.hasMore, next_cursor: page.nextCursor };
}
