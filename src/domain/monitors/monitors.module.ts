import { createGuardedFetch } from '../../engine/guarded-fetch.js';
import { BACKGROUND_LANE, defineModule } from '../../module/app-module.js';
import { webhooksModule } from '../webhooks/webhooks.module.js';
import { Migration0012Monitors } from './migration-0012-monitors.js';
import {
  monitorProvisionHandler,
  monitorProvisionKind,
  monitorRunHandler,
  monitorRunKind,
  type MonitorJobDeps,
} from './monitor-jobs.js';
import { monitorNotifyHandler, monitorNotifyKind } from './monitor-notify.job.js';
import { monitorMaintenance } from './monitor-maintenance.js';
import { MonitorNotifier } from './monitor-notifier.js';
import { MonitorProgress } from './monitor-progress.js';
import { MonitorRunner } from './monitor-runner.js';
import { MONITOR_SETTINGS, monitorSettings } from './monitor.settings.js';
import { MonitorService } from './monitor.service.js';
import { monitorGraphQL } from './monitors.graphql.js';
import { monitorRoutes } from './monitors.routes.js';

const RUNNER_LANE = 'monitor-runner';

/**
 * Monitors: natural-language watches of the web. Creation plans and checks at once; a
 * `monitor.provision` job takes the first snapshot and schedules; `monitor.run` jobs (one per
 * monitor and due time, one at a time per monitor) fetch, compare and record; notifications go
 * through the webhook outbox or `monitor.notify` jobs; progress goes on the pubsub.
 */
export const monitorsModule = defineModule({
  name: 'monitors',
  migrations: [{ name: '0012-monitors', class: Migration0012Monitors }],
  settings: MONITOR_SETTINGS,
  configKey: 'monitors',
  config: monitorSettings,
  services: (ctx) => {
    const { outbox, webhookUrls } = ctx.use(webhooksModule);
    const progress = new MonitorProgress(ctx.pubsub, ctx.logger);
    const notifier = new MonitorNotifier({
      queue: ctx.queue,
      outbox,
      blobs: ctx.blobs,
      maxFailures: ctx.settings.channelMaxFailures,
    });
    return {
      monitors: new MonitorService({
        orm: ctx.orm,
        queue: ctx.queue,
        pubsub: ctx.pubsub,
        guard: ctx.guard,
        search: ctx.search,
        webhookUrls,
        notifier,
        work: ctx.work,
        minIntervalMs: ctx.settings.minIntervalMs,
        smtpConfigured: ctx.settings.smtpUrl !== null,
      }),
      monitorProgress: progress,
      monitorNotifier: notifier,
      monitorLive: () => ctx.liveConnections(),
    };
  },
  routes: ({ monitors, monitorLive }) => monitorRoutes({ monitors, live: monitorLive }),
  graphql: (kit, { monitors }) => monitorGraphQL(kit, monitors),
  jobs: ({ monitorProgress, monitorNotifier }, ctx) => {
    const leaseMs = ctx.config.workers.leaseMs;
    const deps = (): MonitorJobDeps => ({
      orm: ctx.orm,
      models: ctx.models,
      guard: ctx.guard,
      canSearch: () => ctx.search.default() !== null,
      runner: new MonitorRunner({
        engines: ctx.engines,
        blobs: ctx.blobs,
        search: ctx.search,
        progress: monitorProgress,
        logger: ctx.logger,
        timeoutMs: ctx.config.scrape.timeoutMs,
      }),
      notifier: monitorNotifier,
      progress: monitorProgress,
      logger: ctx.logger,
    });
    const notify = {
      retryMs: ctx.settings.notifyRetryMs,
      maxFailures: ctx.settings.channelMaxFailures,
      smtpUrl: ctx.settings.smtpUrl,
      smtpFrom: ctx.settings.smtpFrom,
    };
    return [
      {
        spec: monitorProvisionKind(leaseMs, () => monitorProgress),
        lane: RUNNER_LANE,
        concurrency: ctx.settings.runsPerThread,
        handler: () => monitorProvisionHandler(deps()),
      },
      {
        spec: monitorRunKind(leaseMs, () => ctx.queue),
        lane: RUNNER_LANE,
        concurrency: ctx.settings.runsPerThread,
        handler: () => monitorRunHandler(deps()) as never,
      },
      {
        spec: monitorNotifyKind(notify),
        lane: BACKGROUND_LANE,
        concurrency: 4,
        handler: () =>
          monitorNotifyHandler({
            orm: ctx.orm,
            fetch: createGuardedFetch(ctx.guard),
            settings: notify,
            logger: ctx.logger,
          }) as never,
      },
    ];
  },
  lanes: (ctx) => [{ name: RUNNER_LANE, threads: ctx.settings.threads }],
  maintenance: (_, { orm, blobs, config }) => monitorMaintenance(orm, blobs, config.retentionDays),
});
