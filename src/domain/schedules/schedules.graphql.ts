import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import { resourceChannel } from '../../pubsub/events.js';
import type { ScheduleRunEvent } from './schedule-firing.js';
import { CreateScheduleInput, ScheduleIdParams, SCHEDULE_LIMITS } from './schedule.schema.js';
import type { ScheduleService } from './schedule.service.js';
import type { ScheduleRunView, ScheduleView } from './schedule.view.js';

/** Schedules over GraphQL: the same views and zod schemas as REST, and a schedule's runs as they happen. */
export function scheduleGraphQL(kit: GraphQLKit, schedules: ScheduleService): void {
  const { builder } = kit;

  const ScheduleRunRef = builder.objectRef<ScheduleRunView>('ScheduleRun').implement({
    description: 'One firing of a schedule (one per due time).',
    fields: (t) => ({
      id: t.exposeID('id'),
      scheduleId: t.exposeID('scheduleId'),
      scheduledFor: t.exposeString('scheduledFor', { description: 'The due time (ISO 8601 UTC).' }),
      startedAt: t.exposeString('startedAt'),
      finishedAt: t.exposeString('finishedAt', { nullable: true }),
      status: t.exposeString('status', { description: 'running, succeeded, failed or skipped.' }),
      missedRuns: t.exposeInt('missedRuns', {
        description: 'Due times missed while no worker ran, fired as this run.',
      }),
      attempts: t.exposeInt('attempts'),
      httpStatus: t.exposeInt('httpStatus', { nullable: true }),
      error: t.exposeString('error', { nullable: true }),
      resourceId: t.exposeString('resourceId', { nullable: true }),
      responseExcerpt: t.exposeString('responseExcerpt', { nullable: true }),
    }),
  });

  const ScheduleRef = builder.objectRef<ScheduleView>('Schedule').implement({
    description: 'A call of an endpoint, once or on a cron expression.',
    fields: (t) => ({
      id: t.exposeID('id'),
      scheduleId: t.exposeID('id'),
      type: t.exposeString('type'),
      method: t.exposeString('method'),
      endpoint: t.exposeString('endpoint'),
      payload: t.expose('payload', { type: 'JSON' }),
      cronExpression: t.exposeString('cronExpression', { nullable: true }),
      executeAt: t.exposeString('executeAt', { nullable: true }),
      expressionTimezone: t.exposeString('expressionTimezone'),
      text: t.exposeString('text', { nullable: true }),
      description: t.exposeString('description', { nullable: true }),
      state: t.exposeString('state', { description: 'ENABLED, PAUSED or DELETED.' }),
      nextRunAt: t.exposeString('nextRunAt', { nullable: true }),
      lastRun: t.expose('lastRun', { type: ScheduleRunRef, nullable: true }),
      created: t.exposeString('created', { description: 'ISO 8601 UTC.' }),
      runs: t.field({
        type: [ScheduleRunRef],
        description: 'Runs, latest due time first.',
        args: { limit: t.arg.int() },
        complexity: kit.pageCost(SCHEDULE_LIMITS.runsPage.default),
        validate: kit.validate(
          z.object({ limit: z.number().int().min(1).max(SCHEDULE_LIMITS.runsPage.max).optional() }),
        ),
        resolve: async (s, args, ctx) =>
          (await schedules.runs(ctx.actor(), s.id, kit.parsed<{ limit?: number }>(args))).data,
      }),
    }),
  });

  const CreateSchedule = kit.input(CreateScheduleInput, 'CreateScheduleInput', { json: ['payload'] });

  builder.queryFields((t) => ({
    schedule: t.field({
      type: ScheduleRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(ScheduleIdParams.shape.schedule_id),
      resolve: (_, args, ctx) => schedules.get(ctx.actor(), String(args.id)),
    }),
    schedules: t.field({
      type: [ScheduleRef],
      description: 'The team’s schedules, newest first.',
      args: { includeDeleted: t.arg.boolean() },
      resolve: (_, args, ctx) => schedules.list(ctx.actor(), { includeDeleted: args.includeDeleted ?? false }),
    }),
  }));

  builder.mutationFields((t) => ({
    createSchedule: t.field({
      type: ScheduleRef,
      description: 'Create a schedule (the same as POST /v1/schedules).',
      args: { input: t.arg({ type: CreateSchedule, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateScheduleInput) })),
      resolve: (_, args, ctx) =>
        schedules.create(ctx.actor(), kit.parsed<{ input: z.output<typeof CreateScheduleInput> }>(args).input),
    }),
    deleteSchedule: t.field({
      type: ScheduleRef,
      description: 'Delete a schedule: no run starts after this answers. Returns it, DELETED.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(ScheduleIdParams.shape.schedule_id),
      resolve: async (_, args, ctx) => {
        const actor = ctx.actor();
        await schedules.delete(actor, String(args.id));
        return schedules.get(actor, String(args.id));
      },
    }),
  }));

  builder.subscriptionFields((t) => ({
    scheduleRuns: t.field({
      type: ScheduleRunRef,
      description:
        'Runs of one schedule as they start and finish: its last run first (if any), then every update; ends when the schedule has ended.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(ScheduleIdParams.shape.schedule_id),
      subscribe: async function* (_, args, ctx) {
        const actor = ctx.actor();
        const id = String(args.id);
        // Subscribe before reading the state, so no run falls between the two.
        const events = ctx.pubsub.subscribe(resourceChannel('schedule', id));
        try {
          const current = await schedules.get(actor, id); // 404 for another team's schedule
          if (current.lastRun) yield current.lastRun;
          // A paused schedule has not ended: it may be resumed.
          if (current.state === 'DELETED' && current.lastRun?.status !== 'running') return;
          for await (const event of events) {
            const e = event as ScheduleRunEvent;
            if (e.type !== 'schedule.run') continue;
            yield e.run;
            if (e.state === 'DELETED' && e.run.status !== 'running') return;
          }
        } finally {
          await events.return?.();
        }
      },
      resolve: (run) => run,
    }),
  }));
}
