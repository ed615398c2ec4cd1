import { createGuardedAgents } from '../../engine/guarded-agents.js';
import { BACKGROUND_LANE, defineModule } from '../../module/app-module.js';
import { cronFromModel } from './cron-from-model.js';
import { Migration0010Schedules } from './migration-0010-schedules.js';
import { ScheduleCaller } from './schedule-caller.js';
import { ScheduleEndpoints } from './schedule-endpoint.js';
import { ScheduleFiring, scheduleFireKind } from './schedule-firing.js';
import { ScheduleRunSchema, ScheduleSchema } from './schedule.entity.js';
import { SCHEDULE_SETTINGS, scheduleSettings } from './schedule.settings.js';
import { ScheduleService } from './schedule.service.js';
import { scheduleGraphQL } from './schedules.graphql.js';
import { scheduleRoutes } from './schedules.routes.js';

/**
 * Schedules: calls of this service's endpoints (in-process, as the team) and of the web (over
 * HTTP, through the outbound policy), once or on an EventBridge cron expression. Each due time
 * is one `schedule.fire` job with a unique key, so any number of workers fire it once.
 */
export const schedulesModule = defineModule({
  name: 'schedules',
  entities: [ScheduleSchema, ScheduleRunSchema],
  migrations: [{ name: '0010-schedules', class: Migration0010Schedules }],
  settings: SCHEDULE_SETTINGS,
  configKey: 'schedules',
  config: scheduleSettings,
  services: (ctx) => {
    const endpoints = new ScheduleEndpoints(() => ctx.routes(), ctx.guard);
    let firing: ScheduleFiring | null = null;
    return {
      schedules: new ScheduleService({
        orm: ctx.orm,
        queue: ctx.queue,
        work: ctx.work,
        pubsub: ctx.pubsub,
        endpoints,
        cronFromText: cronFromModel(ctx.models),
        bodyLimitBytes: ctx.config.server.bodyLimitBytes,
      }),
      /** Built on first use: only job threads fire (the guarded agents are theirs). */
      scheduleFiring: () =>
        (firing ??= new ScheduleFiring({
          queue: ctx.queue,
          endpoints,
          // Idle connections kept per host up to the firings made at once: many schedules calling
          // one host at the same minute reuse them instead of opening one per call.
          caller: new ScheduleCaller(
            createGuardedAgents(ctx.guard, { maxFreeSockets: Math.max(16, ctx.settings.fireConcurrency) }),
            ctx.guard,
            ctx.settings.urlTimeoutMs,
          ),
          pubsub: ctx.pubsub,
          logger: ctx.logger,
        })),
    };
  },
  routes: ({ schedules }) => scheduleRoutes({ schedules }),
  graphql: (kit, { schedules }) => scheduleGraphQL(kit, schedules),
  jobs: ({ scheduleFiring }, ctx) => [
    {
      spec: scheduleFireKind(ctx.config.workers.leaseMs, scheduleFiring),
      lane: BACKGROUND_LANE,
      concurrency: ctx.settings.fireConcurrency,
      // Firings begin and are recorded in groups: claim freed slots a few ms' worth at a time.
      gatherMs: 5,
      handler: () => scheduleFiring().handler() as never,
    },
  ],
});
