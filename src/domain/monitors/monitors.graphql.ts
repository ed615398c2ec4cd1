import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import type { MonitorEventPublished, MonitorProgressEvent } from './monitor-progress.js';
import {
  CreateMonitorInput,
  MONITOR_LIMITS,
  MonitorIdParams,
  UpdateMonitorInput,
  type CreateMonitorCommand,
  type UpdateMonitorCommand,
} from './monitor.schema.js';
import type { MonitorService } from './monitor.service.js';
import type { ChannelView, MonitorEventView, MonitorView } from './monitor.view.js';

const pageArgs = {
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).max(MONITOR_LIMITS.listPage.max).optional(),
};

/** Monitors over GraphQL: the same views and zod schemas as REST, and live progress and events. */
export function monitorGraphQL(kit: GraphQLKit, monitors: MonitorService): void {
  const { builder } = kit;

  const ChannelRef = builder.objectRef<ChannelView>('MonitorChannel').implement({
    fields: (t) => ({
      target: t.exposeString('target'),
      type: t.exposeString('type', { description: 'webhook, slack or email.' }),
      events: t.exposeStringList('events'),
      status: t.exposeString('status', { description: 'ok, failing, or disabled (failed too often).' }),
      failures: t.exposeInt('failures', { description: 'Notifications failed in a row.' }),
      lastError: t.exposeString('lastError', { nullable: true }),
    }),
  });

  const TrackedRef = builder.objectRef<MonitorView['tracked']>('MonitorTracked').implement({
    fields: (t) => ({
      type: t.exposeString('type', { description: 'urls, web_query or both.' }),
      urls: t.exposeStringList('urls'),
      webQuery: t.exposeString('webQuery', { nullable: true }),
    }),
  });

  const PolicyRef = builder.objectRef<MonitorView['sourcePolicy']>('MonitorSourcePolicy').implement({
    fields: (t) => ({
      includeUrls: t.exposeStringList('includeUrls'),
      excludeUrls: t.exposeStringList('excludeUrls'),
      includeDomains: t.exposeStringList('includeDomains'),
      excludeDomains: t.exposeStringList('excludeDomains'),
    }),
  });

  const ScheduleRef = builder.objectRef<MonitorView['schedule']>('MonitorSchedule').implement({
    fields: (t) => ({
      frequency: t.exposeString('frequency'),
      cron: t.exposeString('cron', { description: 'EventBridge cron (6 fields), UTC.' }),
      timezone: t.exposeString('timezone'),
      nextRunAt: t.exposeString('nextRunAt', { nullable: true }),
    }),
  });

  const LastRunRef = builder.objectRef<NonNullable<MonitorView['lastRun']>>('MonitorLastRun').implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      status: t.exposeString('status'),
      changeDetected: t.exposeBoolean('changeDetected'),
      ranAt: t.exposeString('ranAt'),
    }),
  });

  const EventRef = builder.objectRef<MonitorEventView>('MonitorEvent').implement({
    fields: (t) => ({
      id: t.exposeID('id'),
      runId: t.exposeID('runId'),
      type: t.exposeString('type', { description: 'first_snapshot, changed or run_failed.' }),
      created: t.exposeInt('created'),
      changed: t.exposeBoolean('changed'),
      summary: t.exposeString('summary'),
      snapshotUrl: t.exposeString('snapshotUrl', { nullable: true }),
      diffUrl: t.exposeString('diffUrl', { nullable: true }),
      data: t.expose('data', { type: 'JSON', nullable: true }),
      dataChanges: t.expose('dataChanges', { type: 'JSON', nullable: true }),
    }),
  });

  const MonitorRef = builder.objectRef<MonitorView>('Monitor').implement({
    description: 'A natural-language watch of the web: what it tracks, when it runs, whom it tells.',
    fields: (t) => ({
      id: t.exposeID('id'),
      status: t.exposeString('status', { description: 'provisioning, active, paused (or failed).' }),
      query: t.exposeString('query'),
      tracked: t.expose('tracked', { type: TrackedRef }),
      planExplanation: t.exposeString('planExplanation'),
      sourcePolicy: t.expose('sourcePolicy', { type: PolicyRef }),
      schedule: t.expose('schedule', { type: ScheduleRef }),
      notificationEvents: t.stringList({ resolve: (m) => m.notification.events }),
      channels: t.field({ type: [ChannelRef], resolve: (m) => m.notification.channels }),
      webhookUrl: t.string({ nullable: true, resolve: (m) => m.webhook?.url ?? null }),
      deliveries: t.expose('deliveries', { type: [ChannelRef] }),
      outputSchema: t.expose('outputSchema', { type: 'JSON', nullable: true }),
      detection: t.expose('detection', { type: 'JSON', nullable: true }),
      errorMessage: t.exposeString('errorMessage', { nullable: true }),
      lastRun: t.expose('lastRun', { type: LastRunRef, nullable: true }),
      agentId: t.string({ resolve: (m) => m.agent.id }),
      metadata: t.expose('metadata', { type: 'JSON' }),
      created: t.exposeInt('created'),
      updated: t.exposeInt('updated'),
      totalCount: t.exposeInt('totalCount', { description: 'Events recorded.' }),
      mermaidDiagram: t.exposeString('mermaidDiagram'),
      events: t.field({
        type: [EventRef],
        description: 'Newest first.',
        args: { limit: t.arg.int() },
        complexity: kit.pageCost(MONITOR_LIMITS.eventsPage.default),
        validate: kit.validate(z.object({ limit: pageArgs.limit })),
        resolve: async (m, args, ctx) =>
          (await monitors.events(ctx.actor(), m.id, { limit: kit.parsed<{ limit?: number }>(args).limit })).data,
      }),
    }),
  });

  const ProgressRef = builder.objectRef<MonitorProgressEvent>('MonitorProgress').implement({
    description:
      'A step of a monitor: provisioning phases (planning, resolving_sources, first_snapshot, scheduling, provisioned) and run steps (run_started, fetching, comparing, notifying, run_completed, run_failed).',
    fields: (t) => ({
      monitorId: t.id({ resolve: (e) => e.monitorId }),
      phase: t.string({ resolve: (e) => e.phase }),
      message: t.string({ resolve: (e) => e.message }),
      runId: t.id({ nullable: true, resolve: (e) => e.runId }),
      source: t.string({ nullable: true, resolve: (e) => e.source }),
      token: t.string({ nullable: true, resolve: (e) => e.token }),
      at: t.float({ description: 'Epoch milliseconds.', resolve: (e) => e.at }),
    }),
  });
  kit.teamEvent(ProgressRef, ['monitor.progress']);

  const PublishedRef = builder.objectRef<MonitorEventPublished>('MonitorEventNotice').implement({
    description: 'An event a run recorded (read it in full with `monitor { events }`).',
    fields: (t) => ({
      monitorId: t.id({ resolve: (e) => e.monitorId }),
      eventId: t.id({ resolve: (e) => e.eventId }),
      type: t.string({ resolve: (e) => e.eventType }),
      runId: t.id({ resolve: (e) => e.runId }),
      changed: t.boolean({ resolve: (e) => e.changed }),
      summary: t.string({ resolve: (e) => e.summary }),
      at: t.float({ description: 'Epoch milliseconds.', resolve: (e) => e.at }),
    }),
  });
  kit.teamEvent(PublishedRef, ['monitor.event']);

  const RunRef = builder.objectRef<{ runId: string; monitorId: string }>('MonitorRunQueued').implement({
    fields: (t) => ({ runId: t.exposeID('runId'), monitorId: t.exposeID('monitorId') }),
  });

  const json = ['webhook', 'output_schema', 'detection', 'metadata', 'source_policy'];
  const CreateMonitor = kit.input(CreateMonitorInput, 'CreateMonitorInput', {
    json,
    names: { notification: 'MonitorNotificationInput', channels: 'MonitorChannelInput' },
  });
  const UpdateMonitor = kit.input(UpdateMonitorInput, 'UpdateMonitorInput', {
    json: ['webhook', 'metadata'],
    names: { notification: 'MonitorNotificationInput', channels: 'MonitorChannelInput' },
  });
  const idArg = { id: MonitorIdParams.shape.monitor_id };

  builder.queryFields((t) => ({
    monitor: t.field({
      type: MonitorRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(idArg.id),
      resolve: (_, args, ctx) => monitors.get(ctx.actor(), String(args.id)),
    }),
    monitors: t.field({
      type: [MonitorRef],
      description: 'The team’s monitors, newest first.',
      args: { cursor: t.arg.int(), limit: t.arg.int() },
      complexity: kit.pageCost(MONITOR_LIMITS.listPage.default),
      validate: kit.validate(z.object(pageArgs)),
      resolve: async (_, args, ctx) =>
        (await monitors.list(ctx.actor(), kit.parsed<{ cursor?: number; limit?: number }>(args))).monitors,
    }),
  }));

  const byId = (
    name: string,
    description: string,
    act: (actor: Parameters<MonitorService['get']>[0], id: string) => Promise<MonitorView>,
  ) =>
    builder.mutationField(name, (t) =>
      t.field({
        type: MonitorRef,
        description,
        args: { id: t.arg.id({ required: true }) },
        validate: kit.validateId(idArg.id),
        resolve: (_, args, ctx) => act(ctx.actor(), String(args.id)),
      }),
    );

  builder.mutationFields((t) => ({
    createMonitor: t.field({
      type: MonitorRef,
      description: 'Create a monitor (the same as POST /v1/monitors): `provisioning`; follow it with monitorProgress.',
      args: { input: t.arg({ type: CreateMonitor, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateMonitorInput) })),
      resolve: (_, args, ctx) => monitors.create(ctx.actor(), kit.parsed<{ input: CreateMonitorCommand }>(args).input),
    }),
    updateMonitor: t.field({
      type: MonitorRef,
      args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateMonitor, required: true }) },
      validate: kit.validate(z.object({ id: idArg.id, input: kit.fromCamel(UpdateMonitorInput) })),
      resolve: (_, args, ctx) => {
        const parsed = kit.parsed<{ id: string; input: UpdateMonitorCommand }>(args);
        return monitors.update(ctx.actor(), parsed.id, parsed.input);
      },
    }),
    runMonitor: t.field({
      type: RunRef,
      description: 'Queue a run now.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(idArg.id),
      resolve: (_, args, ctx) => monitors.runNow(ctx.actor(), String(args.id)),
    }),
  }));
  byId('pauseMonitor', 'Pause an active monitor.', (actor, id) => monitors.pause(actor, id));
  byId('resumeMonitor', 'Resume a paused monitor (next run counted from now).', (actor, id) =>
    monitors.resume(actor, id),
  );
  byId('deleteMonitor', 'Delete a monitor.', (actor, id) => monitors.delete(actor, id));

  builder.subscriptionFields((t) => ({
    monitorProgress: t.field({
      type: ProgressRef,
      description: 'Every provisioning phase and run step of one monitor, from now on.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(idArg.id),
      subscribe: async function* (_, args, ctx) {
        const events = await monitors.progress(ctx.actor(), String(args.id)); // 404 for another team's
        try {
          for await (const event of events) if (event.type === 'monitor.progress') yield event;
        } finally {
          await events.return?.();
        }
      },
      resolve: (event) => event as MonitorProgressEvent,
    }),
    monitorEvents: t.field({
      type: PublishedRef,
      description: 'Events one monitor records (first_snapshot, changed, run_failed), from now on.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(idArg.id),
      subscribe: async function* (_, args, ctx) {
        const events = await monitors.progress(ctx.actor(), String(args.id));
        try {
          for await (const event of events) if (event.type === 'monitor.event') yield event;
        } finally {
          await events.return?.();
        }
      },
      resolve: (event) => event as MonitorEventPublished,
    }),
  }));
}
