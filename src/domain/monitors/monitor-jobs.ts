import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ModelRegistry } from '../../models/model-registry.js';
import { resolveDetectionOptions } from './detection/index.js';
import { planWithModel } from './monitor-model-planner.js';
import { monitorMermaidDiagram } from './planning/index.js';
import type { JobKindSpec } from '../../workers/queue/job-kind.js';
import type { JobHandler } from '../../workers/queue/job-worker.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { MonitorNotifier } from './monitor-notifier.js';
import type { MonitorProgress } from './monitor-progress.js';
import type { MonitorRecord } from './monitor-record.js';
import type { MonitorRunner, RunResult } from './monitor-runner.js';
import {
  MONITOR_PROVISION_JOB,
  MONITOR_RUN_JOB,
  newRunId,
  nextDue,
  scheduledRunJob,
  type RunPayload,
} from './monitor-schedule.js';
import { monitorStore } from './monitor-store.js';

export interface MonitorJobDeps {
  orm: Orm;
  models: ModelRegistry;
  guard: OutboundGuard;
  /** Whether a search provider is configured (a model's web query needs one). */
  canSearch: () => boolean;
  runner: MonitorRunner;
  notifier: MonitorNotifier;
  progress: MonitorProgress;
  logger: Logger;
}

/** Provisioning: planned at creation; the job resolves sources, takes the first snapshot and schedules. */
export function monitorProvisionKind(leaseMs: number, progress: () => MonitorProgress): JobKindSpec {
  return {
    kind: MONITOR_PROVISION_JOB,
    maxAttempts: 3,
    leaseMs,
    backoff: (attempt) => 2000 * attempt,
    async onFailed(em, job, error) {
      const [row] = await exec<{ team_id: string }>(
        em,
        `update monitors set status = 'failed', error_message = ?, updated_at = now()
         where id = ? and status = 'provisioning' returning team_id`,
        [`provisioning failed: ${error.message}`, job.id],
      );
      if (row) void progress().phase({ id: job.id, teamId: row.team_id }, 'provisioning_failed', error.message);
    },
  };
}

/** Runs: one at a time per monitor (concurrency key: the monitor), each due time once. */
export function monitorRunKind(leaseMs: number, queue: () => JobQueue): JobKindSpec {
  return {
    kind: MONITOR_RUN_JOB,
    maxAttempts: 3,
    leaseMs,
    backoff: (attempt) => 2000 * attempt,
    concurrencyLimit: 1,
    async onFailed(em, job, error) {
      const payload = job.payload as unknown as RunPayload;
      await exec(em, `update monitors set error_message = ?, updated_at = now() where id = ?`, [
        `a run failed: ${error.message}`,
        payload.monitorId,
      ]);
      if (payload.runId) {
        await exec(em, `update monitor_runs set status = 'failed', error = ?, finished_at = now() where id = ?`, [
          error.message,
          payload.runId,
        ]);
      }
      // The schedule goes on: the next due time is queued as if the run had finished.
      if (payload.trigger === 'schedule' && payload.due)
        await advanceSchedule(em, queue(), payload.monitorId, new Date(payload.due));
    },
  };
}

export function monitorProvisionHandler(deps: MonitorJobDeps): JobHandler {
  return async (job, { queue, signal }) => {
    const monitor = await monitorStore.find(deps.orm.em.fork(), null, job.id);
    if (!monitor || monitor.status !== 'provisioning') {
      await queue.transaction((em) => queue.complete(em, job));
      return;
    }
    const { progress } = deps;
    const planned = await plan(deps, monitor, signal);
    const sources = describeSources(planned);
    const byModel = planned.planExplanation !== monitor.planExplanation;
    await progress.phase(planned, 'resolving_sources', byModel ? `${planned.planExplanation}: ${sources}` : sources);
    await progress.phase(monitor, 'first_snapshot', 'taking the first snapshot of every source');
    const states = await monitorStore.pageStates(deps.orm.em.fork(), monitor.id);
    const result = await deps.runner.run(planned, states, newRunId(), signal);
    const due = nextDue(monitor.cron, new Date());
    await progress.phase(
      monitor,
      'scheduling',
      due ? `next run at ${due.toISOString()} (UTC)` : 'no run is due any more',
    );
    const recorded = await queue.transaction(async (em) => {
      if (!(await queue.complete(em, job))) return false;
      const [row] = await exec(
        em,
        `update monitors set status = 'active', next_run_at = ?, updated_at = now() where id = ? and status = 'provisioning' returning id`,
        [due, monitor.id],
      );
      if (!row) return false;
      await record(em, deps, planned, result, { trigger: 'provisioning', scheduledFor: null });
      if (due) await queue.enqueue([scheduledRunJob(monitor, due)], em);
      return true;
    });
    if (!recorded) return;
    await published(deps, monitor, result);
    await progress.phase(monitor, 'provisioned', `monitor ${monitor.id} is active`, { runId: result.runId });
  };
}

export function monitorRunHandler(deps: MonitorJobDeps): JobHandler<RunPayload> {
  return async (job, { queue, signal }) => {
    const payload = job.payload;
    const monitor = await monitorStore.find(deps.orm.em.fork(), null, payload.monitorId);
    const due = payload.due ? new Date(payload.due) : null;
    const stale =
      !monitor ||
      (payload.trigger === 'schedule' &&
        (monitor.status !== 'active' || monitor.nextRunAt?.getTime() !== due?.getTime()));
    if (stale) {
      // Deleted, paused, rescheduled (frequency updated, resumed): this due time is no longer wanted.
      await queue.transaction(async (em) => {
        if ((await queue.complete(em, job)) && payload.runId) {
          await exec(
            em,
            `update monitor_runs set status = 'skipped', finished_at = now() where id = ? and status = 'queued'`,
            [payload.runId],
          );
        }
      });
      return;
    }
    const runId = payload.runId ?? newRunId();
    if (payload.runId) {
      await exec(deps.orm.em.fork(), `update monitor_runs set status = 'running', started_at = now() where id = ?`, [
        runId,
      ]);
    }
    const states = await monitorStore.pageStates(deps.orm.em.fork(), monitor.id);
    const result = await deps.runner.run(monitor, states, runId, signal);
    await deps.progress.phase(monitor, 'notifying', `${result.events.length} event(s)`, { runId });
    const recorded = await queue.transaction(async (em) => {
      if (!(await queue.complete(em, job))) return false;
      await record(em, deps, monitor, result, { trigger: payload.trigger, scheduledFor: due });
      if (payload.trigger === 'schedule' && due) await advanceSchedule(em, queue, monitor.id, due);
      return true;
    });
    if (recorded) await published(deps, monitor, result);
  };
}

async function record(
  em: Parameters<typeof monitorStore.recordRun>[0],
  deps: MonitorJobDeps,
  monitor: MonitorRecord,
  result: RunResult,
  run: { trigger: string; scheduledFor: Date | null },
): Promise<void> {
  await monitorStore.recordRun(em, monitor, result, run);
  await deps.notifier.dispatch(em, monitor, result.runId, result.events, result.finishedAt);
}

/**
 * Queues the run after `due`: counted from now when the run was late, so missed due times are
 * not replayed one by one. Only when the monitor still waits for `due` (a frequency update or
 * a resume has queued its own).
 */
async function advanceSchedule(
  em: Parameters<typeof exec>[0],
  queue: JobQueue,
  monitorId: string,
  due: Date,
): Promise<void> {
  const [row] = await exec<{ cron: string; team_id: string }>(
    em,
    `select cron, team_id from monitors where id = ? and status = 'active' and next_run_at = ? for update`,
    [monitorId, due],
  );
  if (!row) return;
  const next = nextDue(row.cron, new Date(Math.max(Date.now(), due.getTime())));
  await exec(em, `update monitors set next_run_at = ?, updated_at = now() where id = ?`, [next, monitorId]);
  if (next) await queue.enqueue([scheduledRunJob({ id: monitorId, teamId: row.team_id }, next)], em);
}

async function published(deps: MonitorJobDeps, monitor: MonitorRecord, result: RunResult): Promise<void> {
  for (const e of result.events) {
    await deps.progress.event(monitor, {
      eventId: e.id,
      eventType: e.type,
      runId: result.runId,
      changed: e.changed,
      summary: e.summary,
    });
  }
  const phase = result.status === 'failed' ? 'run_failed' : 'run_completed';
  const message =
    result.status === 'failed'
      ? (result.error ?? 'the run failed')
      : result.changeDetected
        ? (result.summary ?? 'changed')
        : 'no change';
  await deps.progress.phase(monitor, phase, message, { runId: result.runId });
}

/**
 * The `planning` phase: the deterministic plan made at creation, or, with a model configured,
 * the model's plan (its reasoning streamed as `reasoning_token`s), stored on the monitor. A
 * model that fails or names nothing the monitor may track leaves the deterministic plan.
 */
async function plan(deps: MonitorJobDeps, monitor: MonitorRecord, signal: AbortSignal): Promise<MonitorRecord> {
  const provider = deps.models.default();
  if (!provider) {
    await deps.progress.phase(monitor, 'planning', monitor.planExplanation);
    return monitor;
  }
  await deps.progress.phase(monitor, 'planning', `the model ${provider.model} is planning`);
  let tokens = Promise.resolve();
  let planned: MonitorRecord;
  try {
    const answer = await planWithModel(provider, monitor, {
      guard: deps.guard,
      canSearch: deps.canSearch(),
      signal,
      onReasoning: (token) => {
        tokens = tokens.then(() => deps.progress.phase(monitor, 'reasoning_token', '', { token }));
      },
    });
    if (answer) {
      planned = {
        ...monitor,
        tracked: answer.tracked,
        planExplanation: `${answer.explanation} (planned by ${provider.model})`,
      };
    } else {
      planned = {
        ...monitor,
        planExplanation: `${monitor.planExplanation} (the model's plan named nothing this monitor may track)`,
      };
    }
  } catch (err) {
    if (signal.aborted || !(err instanceof AppError)) throw err;
    planned = { ...monitor, planExplanation: `${monitor.planExplanation} (the model could not plan: ${err.detail})` };
  }
  await tokens;
  await exec(
    deps.orm.em.fork(),
    `update monitors set tracked = ?::jsonb, plan_explanation = ?, mermaid_diagram = ?, updated_at = now()
     where id = ? and status = 'provisioning'`,
    [JSON.stringify(planned.tracked), planned.planExplanation, diagramOf(planned), monitor.id],
  );
  return planned;
}

function diagramOf(monitor: MonitorRecord): string {
  return monitorMermaidDiagram({
    tracked: monitor.tracked,
    frequency: monitor.frequency,
    detection: resolveDetectionOptions(monitor.detection ?? {}),
    output_schema: monitor.outputSchema ?? undefined,
    notification: monitor.notification,
    webhook: monitor.webhook,
  });
}

function describeSources(monitor: MonitorRecord): string {
  const parts: string[] = [];
  if (monitor.tracked.urls.length > 0) parts.push(`tracking ${monitor.tracked.urls.join(', ')}`);
  if (monitor.tracked.web_query) parts.push(`searching the web for "${monitor.tracked.web_query}"`);
  return parts.join('; ');
}
