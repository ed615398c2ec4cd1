import { nextRun } from '../schedules/cron/index.js';
import type { NewJob } from '../../workers/queue/job-kind.js';
import { randomBase36 } from '../../ids.js';

export const MONITOR_PROVISION_JOB = 'monitor.provision';
export const MONITOR_RUN_JOB = 'monitor.run';

/** What a `monitor.run` job carries. */
export interface RunPayload {
  monitorId: string;
  trigger: 'schedule' | 'manual';
  /** The due time a scheduled run is for (ISO); the job's unique key holds it too. */
  due?: string;
  /** The run row a manual run fills. */
  runId?: string;
}

export const newRunId = () => `run_${randomBase36()}`;

/** The monitor's next due time strictly after `after` (UTC), or null when its cron has no more. */
export function nextDue(cron: string, after: Date): Date | null {
  return nextRun(cron, { timezone: 'UTC', after });
}

/**
 * The job of one scheduled run: its id is `<monitor>@<due time>`, so however many processes
 * queue it, it is queued once; its concurrency key is the monitor, so runs of one monitor
 * never overlap (the kind's limit is 1).
 */
export function scheduledRunJob(monitor: { id: string; teamId: string }, due: Date): NewJob {
  const payload: RunPayload = { monitorId: monitor.id, trigger: 'schedule', due: due.toISOString() };
  return {
    id: `${monitor.id}@${due.toISOString()}`,
    kind: MONITOR_RUN_JOB,
    teamId: monitor.teamId,
    runAt: due,
    concurrencyKey: monitor.id,
    payload: { ...payload },
  };
}

export function manualRunJob(monitor: { id: string; teamId: string }, runId: string): NewJob {
  const payload: RunPayload = { monitorId: monitor.id, trigger: 'manual', runId };
  return {
    id: runId,
    kind: MONITOR_RUN_JOB,
    teamId: monitor.teamId,
    concurrencyKey: monitor.id,
    // Asked for now: ahead of scheduled runs that are due.
    priority: 1,
    payload: { ...payload },
  };
}
