import { z } from 'zod';
import type { LiveConnections } from '../auth/live-connections.js';
import type { AppError } from '../../errors.js';
import { eventStreamResponse, type StreamEvent } from '../../module/event-stream.js';
import { Reply, defineRoute } from '../../module/route.js';
import {
  MonitorEventObject,
  MonitorObject,
  MonitorRunObject,
  presentMonitor,
  presentMonitorEvent,
  presentMonitorRun,
} from './monitor.presenter.js';
import {
  CreateMonitorInput,
  CreateMonitorQuery,
  ListMonitorsQuery,
  MonitorEventsQuery,
  MonitorIdParams,
  MonitorRunParams,
  UpdateMonitorInput,
} from './monitor.schema.js';
import type { ProvisioningItem } from './monitor-provisioning.js';
import type { MonitorService, ProgressItem } from './monitor.service.js';

const tags = ['Monitors'];
const notFound = { 404: { description: 'No such monitor (`monitor_not_found`), or it was deleted.' } };
const yes = (v: string | undefined) => v === '1' || v === 'true';

/** The spec's creation error body: `{error, monitor_id}` (empty when no monitor was created). */
export const creationErrorBody = (error: AppError) => ({
  error: error.detail,
  monitor_id: typeof error.metadata.monitor_id === 'string' ? error.metadata.monitor_id : '',
});

function provisioningEvent(item: ProvisioningItem, seq: number): StreamEvent {
  const id = String(seq);
  switch (item.kind) {
    case 'phase':
      return { event: 'phase', id, data: { phase: item.phase, message: item.message } };
    case 'reasoning_token':
      return { event: 'reasoning_token', id, data: { token: item.token } };
    case 'complete':
      return { event: 'complete', id, data: { monitor: presentMonitor(item.monitor) } };
    case 'error':
      return { event: 'error', id, data: { error: item.error, monitor_id: item.monitorId } };
  }
}

async function* numbered<T>(
  items: AsyncIterable<T>,
  map: (item: T, seq: number) => StreamEvent,
): AsyncIterable<StreamEvent> {
  let seq = 0;
  for await (const item of items) yield map(item, ++seq);
}

function progressEvent(item: ProgressItem, seq: number): StreamEvent {
  if (item.type === 'monitor.event') {
    return {
      event: 'event',
      id: String(seq),
      data: {
        id: item.eventId,
        type: item.eventType,
        run_id: item.runId,
        changed: item.changed,
        summary: item.summary,
      },
    };
  }
  return {
    event: item.phase === 'reasoning_token' ? 'reasoning_token' : 'phase',
    id: String(seq),
    data:
      item.phase === 'reasoning_token'
        ? { token: item.token }
        : { phase: item.phase, message: item.message, run_id: item.runId, source: item.source },
  };
}

export function monitorRoutes({ monitors, live }: { monitors: MonitorService; live: () => LiveConnections }) {
  const monitorPath = '/v1/monitors/{monitor_id}';
  return [
    defineRoute({
      method: 'post',
      path: '/v1/monitors',
      operationId: 'createMonitor',
      summary: 'Create a monitor',
      description:
        'Plans what the query tracks (URLs and domains it names, else a web search), checks everything, stores the monitor and queues its provisioning: the first snapshot, then recurring runs. `?stream=1` answers with an event stream: `phase` (planning, resolving_sources, first_snapshot, scheduling), `reasoning_token`, then `complete` `{monitor}` or `error` `{error, monitor_id}`. Errors answer `{error, monitor_id}`.',
      tags,
      body: CreateMonitorInput,
      query: CreateMonitorQuery,
      errorBody: creationErrorBody,
      responses: {
        202: { description: 'The monitor, `provisioning`.', schema: MonitorObject },
        400: { description: '`{error, monitor_id}`: invalid query, frequency (under 10 minutes), channels, schema…' },
        403: { description: '`{error, monitor_id}`: a tracked URL or channel the outbound policy refuses.' },
      },
      handler: async ({ actor, body, query, signal }) => {
        if (!yes(query.stream)) return new Reply(202, presentMonitor(await monitors.create(actor, body)));
        const items = await monitors.createStreaming(actor, body, signal);
        return eventStreamResponse(numbered(items, provisioningEvent), { signal, actor, live: live() });
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/monitors',
      operationId: 'listMonitors',
      summary: 'List monitors',
      tags,
      query: ListMonitorsQuery,
      responses: {
        200: {
          description: 'The team’s monitors, newest first (deleted ones left out).',
          schema: z.object({
            object: z.literal('list'),
            data: z.array(MonitorObject),
            total_count: z.number().int(),
            next_cursor: z.number().int().nullable(),
          }),
        },
      },
      handler: async ({ actor, query }) => {
        const { monitors: list, total, nextCursor } = await monitors.list(actor, query);
        return { object: 'list', data: list.map(presentMonitor), total_count: total, next_cursor: nextCursor };
      },
    }),
    defineRoute({
      method: 'get',
      path: monitorPath,
      operationId: 'getMonitor',
      summary: 'Get a monitor',
      tags,
      params: MonitorIdParams,
      responses: { 200: { description: 'The monitor.', schema: MonitorObject }, ...notFound },
      handler: async ({ actor, params }) => presentMonitor(await monitors.get(actor, params.monitor_id)),
    }),
    defineRoute({
      method: 'post',
      path: monitorPath,
      operationId: 'updateMonitor',
      summary: 'Update a monitor',
      description:
        'Changes frequency (rescheduled from now), notification (channel records start clean), webhook, and metadata (merged; a key set to "" is deleted).',
      tags,
      params: MonitorIdParams,
      body: UpdateMonitorInput,
      responses: { 200: { description: 'The monitor.', schema: MonitorObject }, ...notFound },
      handler: async ({ actor, params, body }) => presentMonitor(await monitors.update(actor, params.monitor_id, body)),
    }),
    defineRoute({
      method: 'delete',
      path: monitorPath,
      operationId: 'deleteMonitor',
      summary: 'Delete a monitor',
      tags,
      params: MonitorIdParams,
      responses: { 200: { description: 'The monitor, `deleted`.', schema: MonitorObject }, ...notFound },
      handler: async ({ actor, params }) => presentMonitor(await monitors.delete(actor, params.monitor_id)),
    }),
    defineRoute({
      method: 'post',
      path: `${monitorPath}/pause`,
      operationId: 'pauseMonitor',
      summary: 'Pause a monitor',
      tags,
      params: MonitorIdParams,
      responses: {
        200: { description: 'The monitor, `paused`.', schema: MonitorObject },
        409: { description: 'The monitor is not active (`monitor_not_active`).' },
        ...notFound,
      },
      handler: async ({ actor, params }) => presentMonitor(await monitors.pause(actor, params.monitor_id)),
    }),
    defineRoute({
      method: 'post',
      path: `${monitorPath}/resume`,
      operationId: 'resumeMonitor',
      summary: 'Resume a monitor',
      tags,
      params: MonitorIdParams,
      responses: {
        200: { description: 'The monitor, `active`, its next run counted from now.', schema: MonitorObject },
        409: { description: 'The monitor is not paused (`monitor_not_paused`).' },
        ...notFound,
      },
      handler: async ({ actor, params }) => presentMonitor(await monitors.resume(actor, params.monitor_id)),
    }),
    defineRoute({
      method: 'get',
      path: `${monitorPath}/events`,
      operationId: 'listMonitorEvents',
      summary: 'List a monitor’s events',
      tags,
      params: MonitorIdParams,
      query: MonitorEventsQuery,
      responses: {
        200: {
          description: 'Newest first.',
          schema: z.object({
            data: z.array(MonitorEventObject),
            has_more: z.boolean(),
            next_cursor: z.string().nullable(),
            total_count: z.number().int(),
          }),
        },
        ...notFound,
      },
      handler: async ({ actor, params, query }) => {
        const page = await monitors.events(actor, params.monitor_id, {
          limit: query.limit,
          cursor: query.cursor,
          countOnly: yes(query.count_only),
        });
        return {
          data: page.data.map(presentMonitorEvent),
          has_more: page.hasMore,
          next_cursor: page.nextCursor,
          total_count: page.totalCount,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: `${monitorPath}/progress`,
      operationId: 'streamMonitorProgress',
      summary: 'Follow a monitor',
      description:
        'Extension: an event stream of the monitor’s provisioning phases, run steps (`phase`) and recorded events (`event`), from now on.',
      tags,
      params: MonitorIdParams,
      responses: { 200: { description: '`text/event-stream`.' }, ...notFound },
      handler: async ({ actor, params, signal }) => {
        const items = await monitors.progress(actor, params.monitor_id, signal);
        return eventStreamResponse(numbered(items, progressEvent), { signal, actor, live: live() });
      },
    }),
    defineRoute({
      method: 'post',
      path: `${monitorPath}/runs`,
      operationId: 'runMonitor',
      summary: 'Run a monitor now',
      description: 'Extension: queues a run at once (after a run in progress: one at a time per monitor).',
      tags,
      params: MonitorIdParams,
      responses: {
        202: {
          description: 'The queued run.',
          schema: z.object({ run_id: z.string(), monitor_id: z.string(), status: z.literal('queued') }),
        },
        409: { description: 'The monitor is still provisioning.' },
        ...notFound,
      },
      handler: async ({ actor, params }) => {
        const run = await monitors.runNow(actor, params.monitor_id);
        return new Reply(202, { run_id: run.runId, monitor_id: run.monitorId, status: 'queued' });
      },
    }),
    defineRoute({
      method: 'get',
      path: `${monitorPath}/runs/{run_id}`,
      operationId: 'getMonitorRun',
      summary: 'Get a run',
      tags,
      params: MonitorRunParams,
      responses: {
        200: { description: 'The run and what each source did.', schema: MonitorRunObject },
        404: { description: 'No such monitor or run.' },
      },
      handler: async ({ actor, params }) =>
        presentMonitorRun(await monitors.getRun(actor, params.monitor_id, params.run_id)),
    }),
  ];
}
