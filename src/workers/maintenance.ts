import type { AppConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { BACKGROUND_LANE, type ModuleJob } from '../module/app-module.js';
import type { BuiltModules } from '../module/build-modules.js';
import type { JobQueue } from './queue/job-queue.js';

export const MAINTENANCE_JOB = 'maintenance.run';
/** Finished jobs are kept this long for inspection; failed ones as long as the rest (RETENTION_DAYS). */
const COMPLETED_JOBS_KEPT_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The hourly maintenance round as a job: every module's maintenance tasks (retention), then
 * the queue's own finished jobs. One job per hour (its id names the hour), so however many
 * processes queue it, it runs once.
 */
export function maintenanceJob(modules: BuiltModules, queue: JobQueue, config: AppConfig, logger: Logger): ModuleJob {
  return {
    spec: { kind: MAINTENANCE_JOB, maxAttempts: 3, leaseMs: 600_000, backoff: () => 60_000 },
    lane: BACKGROUND_LANE,
    concurrency: 1,
    handler: () => async (job) => {
      const now = new Date();
      const report: Record<string, number> = {};
      for (const { module, task } of modules.maintenance()) {
        try {
          Object.assign(report, await task(now));
        } catch (err) {
          logger.warn({ err, module }, 'maintenance of a module failed; the next round tries again');
        }
      }
      report.jobs = await queue.purge(
        new Date(now.getTime() - COMPLETED_JOBS_KEPT_MS),
        new Date(now.getTime() - config.retentionDays * 86_400_000),
      );
      if (Object.values(report).some((n) => n > 0)) logger.info({ ...report }, 'retention purge');
      await queue.transaction((em) => queue.complete(em, job));
    },
  };
}

/** Queues this hour's maintenance round (once per hour whoever asks; due `delayMs` from now). */
export async function scheduleMaintenance(queue: JobQueue, now: Date, delayMs = 0): Promise<void> {
  const hour = new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS).toISOString().slice(0, 13);
  await queue.enqueue([{ id: `maintenance:${hour}`, kind: MAINTENANCE_JOB, runAt: new Date(now.getTime() + delayMs) }]);
}
