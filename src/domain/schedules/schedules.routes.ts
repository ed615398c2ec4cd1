import { z } from 'zod';
import { defineRoute } from '../../module/route.js';
import {
  ScheduleObject,
  SchedulePreviewObject,
  ScheduleRunsObject,
  presentSchedule,
  presentSchedulePreview,
  presentScheduleRuns,
} from './schedule.presenter.js';
import {
  CreateScheduleInput,
  ListSchedulesQuery,
  NextRunsQuery,
  PreviewScheduleInput,
  ScheduleIdParams,
  ScheduleRunsQuery,
  UpdateScheduleInput,
} from './schedule.schema.js';
import type { ScheduleService } from './schedule.service.js';

const tags = ['Schedules'];
const notFound = { 404: { description: 'No such schedule (`schedule_not_found`).' } };
const wrapped = z.object({ schedule: ScheduleObject });
const deleted = { 409: { description: 'The schedule is deleted or has ended (`schedule_deleted`).' } };

export function scheduleRoutes({ schedules }: { schedules: ScheduleService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/schedules',
      operationId: 'createSchedule',
      summary: 'Create a schedule',
      description:
        'Calls an endpoint once (`execute_at`) or on a recurrence (`cron_expression` with `expression_timezone`, or `text` in words). A short endpoint (`v1/scrapes`, `v1/batches`, `v1/crawls`, `v1/maps`, `v1/answers`) runs in this service as the schedule’s team; a URL is called over HTTP through the outbound network policy.',
      tags,
      body: CreateScheduleInput,
      responses: {
        200: { description: 'The schedule, with its next run.', schema: ScheduleObject },
        400: { description: 'Invalid input: the cron expression, time zone, execute_at, text, method or endpoint.' },
        403: { description: 'The endpoint URL is refused by the outbound policy (`blacklisted_domain`).' },
        413: { description: 'The payload is larger than a request body may be.' },
      },
      handler: async ({ actor, body }) => presentSchedule(await schedules.create(actor, body)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/schedules',
      operationId: 'listSchedules',
      summary: 'List schedules',
      tags,
      query: ListSchedulesQuery,
      responses: {
        200: {
          description: 'The team’s schedules, newest first.',
          schema: z.object({ schedules: z.array(ScheduleObject), count: z.number().int() }),
        },
      },
      handler: async ({ actor, query }) => {
        const list = await schedules.list(actor, { includeDeleted: query.include_deleted ?? false });
        return { schedules: list.map(presentSchedule), count: list.length };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/schedules/{schedule_id}',
      operationId: 'getSchedule',
      summary: 'Get a schedule',
      tags,
      params: ScheduleIdParams,
      responses: { 200: { description: 'The schedule.', schema: z.object({ schedule: ScheduleObject }) }, ...notFound },
      handler: async ({ actor, params }) => ({
        schedule: presentSchedule(await schedules.get(actor, params.schedule_id)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/schedules/preview',
      operationId: 'previewSchedule',
      summary: 'Preview due times',
      description:
        'Extension: the next due times of a timing not saved (exactly one of `cron_expression`, `execute_at`, `text`, with `expression_timezone`), validated as creating a schedule validates it, in UTC and on the time zone’s wall clock (daylight saving time as the schedule would fire).',
      tags,
      body: PreviewScheduleInput,
      responses: {
        200: { description: 'The timing and its next due times.', schema: SchedulePreviewObject },
        400: { description: 'Invalid input: the cron expression, time zone, execute_at, text, count or after.' },
      },
      handler: async ({ body }) => presentSchedulePreview(await schedules.preview(body)),
    }),
    defineRoute({
      method: 'patch',
      path: '/v1/schedules/{schedule_id}',
      operationId: 'updateSchedule',
      summary: 'Update a schedule',
      description:
        'Extension: changes the fields given, validated as creating validates them. A new timing (one of `cron_expression`, `execute_at`, `text`, or `expression_timezone` alone) takes effect from now: the next due time is computed again (a paused schedule keeps it for when it resumes). A call already under way finishes as it began.',
      tags,
      params: ScheduleIdParams,
      body: UpdateScheduleInput,
      responses: {
        200: { description: 'The schedule.', schema: wrapped },
        400: { description: 'Invalid input, as for creation.' },
        403: { description: 'The endpoint URL is refused by the outbound policy (`blacklisted_domain`).' },
        ...notFound,
        ...deleted,
        413: { description: 'The payload is larger than a request body may be.' },
      },
      handler: async ({ actor, params, body }) => ({
        schedule: presentSchedule(await schedules.update(actor, params.schedule_id, body)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/schedules/{schedule_id}/pause',
      operationId: 'pauseSchedule',
      summary: 'Pause a schedule',
      description:
        'Extension: `state` becomes `PAUSED` and `next_run_at` null; no run starts after this answers (one under way finishes). Due times that pass while paused are not run, then or later. Pausing a paused schedule changes nothing.',
      tags,
      params: ScheduleIdParams,
      responses: { 200: { description: 'The schedule, paused.', schema: wrapped }, ...notFound, ...deleted },
      handler: async ({ actor, params }) => ({
        schedule: presentSchedule(await schedules.pause(actor, params.schedule_id)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/schedules/{schedule_id}/resume',
      operationId: 'resumeSchedule',
      summary: 'Resume a schedule',
      description:
        'Extension: `state` becomes `ENABLED` again, with its next due time after now. Resuming an enabled schedule changes nothing.',
      tags,
      params: ScheduleIdParams,
      responses: {
        200: { description: 'The schedule, enabled.', schema: wrapped },
        ...notFound,
        409: {
          description:
            'The schedule is deleted (`schedule_deleted`), or has no run left: a one-time schedule whose time passed while paused, a cron whose years are over (`schedule_ended`).',
        },
      },
      handler: async ({ actor, params }) => ({
        schedule: presentSchedule(await schedules.resume(actor, params.schedule_id)),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/schedules/{schedule_id}/next_runs',
      operationId: 'listScheduleNextRuns',
      summary: 'List a schedule’s next due times',
      description:
        'Extension: an enabled schedule’s `next_run_at` and the due times after it; a paused one’s, were it resumed now; none for a deleted one. In UTC and on the schedule’s wall clock.',
      tags,
      params: ScheduleIdParams,
      query: NextRunsQuery,
      responses: {
        200: { description: 'The schedule’s timing and its next due times.', schema: SchedulePreviewObject },
        ...notFound,
      },
      handler: async ({ actor, params, query }) =>
        presentSchedulePreview(await schedules.nextRuns(actor, params.schedule_id, query)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/schedules/{schedule_id}',
      operationId: 'deleteSchedule',
      summary: 'Delete a schedule',
      description: 'No run starts after this answers; a call under way finishes and is recorded.',
      tags,
      params: ScheduleIdParams,
      responses: {
        200: {
          description: 'Deleted.',
          schema: z.object({ message: z.string(), schedule_id: z.string() }),
        },
        ...notFound,
      },
      handler: async ({ actor, params }) => {
        const { scheduleId } = await schedules.delete(actor, params.schedule_id);
        return { message: 'Schedule deleted', schedule_id: scheduleId };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/schedules/{schedule_id}/runs',
      operationId: 'listScheduleRuns',
      summary: 'List a schedule’s runs',
      tags,
      params: ScheduleIdParams,
      query: ScheduleRunsQuery,
      responses: { 200: { description: 'Runs, latest due time first.', schema: ScheduleRunsObject }, ...notFound },
      handler: async ({ actor, params, query }) =>
        presentScheduleRuns(await schedules.runs(actor, params.schedule_id, query)),
    }),
  ];
}
