import { z } from 'zod';
import { defineRoute } from '../../module/route.js';
import { ScheduleObject, ScheduleRunsObject, presentSchedule, presentScheduleRuns } from './schedule.presenter.js';
import { CreateScheduleInput, ListSchedulesQuery, ScheduleIdParams, ScheduleRunsQuery } from './schedule.schema.js';
import type { ScheduleService } from './schedule.service.js';

const tags = ['Schedules'];
const notFound = { 404: { description: 'No such schedule (`schedule_not_found`).' } };

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
