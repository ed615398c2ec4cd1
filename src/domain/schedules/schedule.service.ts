import { randomBase36, newId } from '../../ids.js';
import { exec, retryDeadlocks } from '../../db/sql.js';
import type { Orm } from '../../db/orm.js';
import { AppError, errors } from '../../errors.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { WorkSignal } from '../../workers/work-signal.js';
import type { Actor } from '../auth/actor.js';
import type { CronFromText } from './cron/index.js';
import { earlyTiming, requireTimingMode, resolveTiming } from './schedule-timing.js';
import { ScheduleChanges } from './schedule-changes.js';
import {
  upcomingDueTimes,
  parseAfter,
  previewCount,
  previewView,
  scheduleDueTimes,
  type SchedulePreviewView,
} from './schedule-preview.js';
import { invalidField } from './cron/field-error.js';
import type { ScheduleEndpoints } from './schedule-endpoint.js';
import { FIRE_KIND, fireJobId, runsById, scheduleOf, scheduleRunOf, type FirePayload } from './schedule-rows.js';
import {
  SCHEDULE_LIMITS,
  type CreateScheduleCommand,
  type PreviewScheduleCommand,
  type RunsPageArgs,
  type UpdateScheduleCommand,
} from './schedule.schema.js';
import { scheduleRunView, scheduleView, type ScheduleRunsPage, type ScheduleView } from './schedule.view.js';

export interface ScheduleServiceDeps {
  orm: Orm;
  queue: JobQueue;
  work: WorkSignal;
  pubsub: PubSub;
  endpoints: ScheduleEndpoints;
  /** The model fallback for `text` (absent when no model is configured). */
  cronFromText?: CronFromText;
  /** The request body limit: a payload larger than a request may be is refused. */
  bodyLimitBytes: number;
  now?: () => Date;
}

/**
 * Schedules: create, read, update, pause, resume, delete, the runs history and the next due
 * times. Firing is ScheduleFiring's; the changes' transactions are ScheduleChanges'.
 */
export class ScheduleService {
  private readonly changes: ScheduleChanges;

  constructor(private readonly deps: ScheduleServiceDeps) {
    this.changes = new ScheduleChanges({ ...deps, checkPayloadSize: (payload) => this.checkPayloadSize(payload) });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async create(actor: Actor, command: CreateScheduleCommand): Promise<ScheduleView> {
    const payload = command.payload ?? {};
    this.checkPayloadSize(payload);
    requireTimingMode(command);
    // Cheap checks first: a bad time zone or expression is refused before any DNS or model call.
    const early = earlyTiming(command, this.now());
    const endpoint = await this.deps.endpoints.validate(command.method, command.endpoint, payload);
    const timing = early ?? (await resolveTiming(command, { now: this.now(), cronFromText: this.deps.cronFromText }));
    const id = newId('schedule');
    await this.deps.queue.transaction(async (em) => {
      await exec(
        em,
        `insert into schedules (id, team_id, type, method, endpoint, payload, cron_expression, execute_at,
           expression_timezone, text, description, state, next_run_at)
         values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, 'ENABLED', ?)`,
        [
          id,
          actor.teamId,
          timing.type,
          command.method,
          endpoint,
          JSON.stringify(payload),
          timing.cronExpression,
          timing.executeAt,
          timing.timezone,
          timing.text,
          timing.description,
          timing.firstRun,
        ],
      );
      const job: FirePayload = { scheduleId: id, due: timing.firstRun.toISOString() };
      await this.deps.queue.enqueue(
        [
          {
            id: fireJobId(id, timing.firstRun),
            kind: FIRE_KIND,
            teamId: actor.teamId,
            payload: { ...job },
            runAt: timing.firstRun,
          },
        ],
        em,
      );
    });
    this.deps.work.notify();
    return this.get(actor, id);
  }

  private checkPayloadSize(payload: Record<string, unknown>): void {
    const size = Buffer.byteLength(JSON.stringify(payload));
    if (size > this.deps.bodyLimitBytes) {
      throw new AppError(
        'payload_too_large',
        'payload_too_large',
        `payload: ${size} bytes is more than the ${this.deps.bodyLimitBytes} bytes a request body may have`,
        { metadata: { field: 'payload' } },
      );
    }
  }

  async get(actor: Actor, id: string): Promise<ScheduleView> {
    const em = this.deps.orm.em.fork();
    const [row] = await exec(em, 'select * from schedules where id = ? and team_id = ?', [id, actor.teamId]);
    if (!row) throw errors.notFound('schedule', id);
    const schedule = scheduleOf(row);
    const runs = await runsById(em, [schedule.lastRunId]);
    return scheduleView(schedule, schedule.lastRunId ? (runs.get(schedule.lastRunId) ?? null) : null);
  }

  /** The team's schedules (enabled and paused), newest first; deleted (and ended) ones only when asked. */
  async list(actor: Actor, options: { includeDeleted?: boolean } = {}): Promise<ScheduleView[]> {
    const em = this.deps.orm.em.fork();
    const rows = await exec(
      em,
      `select * from schedules where team_id = ? ${options.includeDeleted ? '' : `and state <> 'DELETED'`}
       order by created_at desc, id desc limit ?`,
      [actor.teamId, SCHEDULE_LIMITS.list],
    );
    const schedules = rows.map(scheduleOf);
    const runs = await runsById(
      em,
      schedules.map((s) => s.lastRunId),
    );
    return schedules.map((s) => scheduleView(s, s.lastRunId ? (runs.get(s.lastRunId) ?? null) : null));
  }

  /** Changes the fields given (validated as `create` validates them); a new timing moves the next due time. 409 when deleted. */
  async update(actor: Actor, id: string, command: UpdateScheduleCommand): Promise<ScheduleView> {
    await this.changes.update(actor.teamId, id, command);
    return this.get(actor, id);
  }

  /** ENABLED → PAUSED: no run starts after this returns (one under way finishes); idempotent; 409 when deleted. */
  async pause(actor: Actor, id: string): Promise<ScheduleView> {
    await this.changes.pause(actor.teamId, id);
    return this.get(actor, id);
  }

  /** PAUSED → ENABLED from its next due time after now (none caught up); idempotent; 409 when deleted or nothing is left to run. */
  async resume(actor: Actor, id: string): Promise<ScheduleView> {
    await this.changes.resume(actor.teamId, id);
    return this.get(actor, id);
  }

  /** The schedule's next `count` due times (after `after` when given), in UTC and on its wall clock. */
  async nextRuns(actor: Actor, id: string, query: { count?: number; after?: string }): Promise<SchedulePreviewView> {
    const [row] = await exec(this.deps.orm.em.fork(), 'select * from schedules where id = ? and team_id = ?', [
      id,
      actor.teamId,
    ]);
    if (!row) throw errors.notFound('schedule', id);
    const schedule = scheduleOf(row);
    const timing = { ...schedule, timezone: schedule.expressionTimezone };
    const after = parseAfter(query.after, schedule.expressionTimezone);
    const dueTimes = scheduleDueTimes(schedule, { now: this.now(), after, count: previewCount(query.count) });
    return previewView(timing, dueTimes, schedule);
  }

  /** The next due times of a timing not saved, validated as `create` validates it (text converted as it would be). */
  async preview(command: PreviewScheduleCommand): Promise<SchedulePreviewView> {
    requireTimingMode(command);
    const now = this.now();
    const timing = await resolveTiming(command, { now, cronFromText: this.deps.cronFromText });
    const after = parseAfter(command.after, timing.timezone) ?? now;
    return previewView(timing, upcomingDueTimes(timing, after, previewCount(command.count)));
  }

  /**
   * Deletes a schedule: no run starts after this returns (its queued firing is removed in the
   * same transaction, and a firing checks the state under the same row lock); a call already
   * under way finishes and is recorded. Deleting a deleted schedule is not an error.
   */
  async delete(actor: Actor, id: string): Promise<{ scheduleId: string }> {
    // A group of firings locks its jobs, then their schedules; this locks the schedule, then its
    // next job: when the two cross, Postgres rolls one back, and a rolled-back delete runs again.
    const found = await retryDeadlocks(() =>
      this.deps.queue.transaction(async (em) => {
        const [row] = await exec(em, 'select id, next_run_at from schedules where id = ? and team_id = ? for update', [
          id,
          actor.teamId,
        ]);
        if (!row) return false;
        const next = row.next_run_at ? new Date(row.next_run_at as string | Date) : null;
        await exec(
          em,
          `update schedules set state = 'DELETED', next_run_at = null, deleted_at = coalesce(deleted_at, now()) where id = ?`,
          [id],
        );
        if (next) await exec(em, `delete from jobs where id = ? and status = 'queued'`, [fireJobId(id, next)]);
        return true;
      }),
    );
    if (!found) throw errors.notFound('schedule', id);
    return { scheduleId: id };
  }

  /** The schedule's runs, latest due time first. */
  async runs(actor: Actor, id: string, page: RunsPageArgs = {}): Promise<ScheduleRunsPage> {
    const em = this.deps.orm.em.fork();
    const [owned] = await exec(em, 'select 1 from schedules where id = ? and team_id = ?', [id, actor.teamId]);
    if (!owned) throw errors.notFound('schedule', id);
    const limit = page.limit ?? SCHEDULE_LIMITS.runsPage.default;
    const before = page.cursor === undefined ? null : decodeCursor(page.cursor);
    const rows = await exec(
      em,
      `select * from schedule_runs where schedule_id = ? ${before ? 'and scheduled_for < ?' : ''}
       order by scheduled_for desc limit ?`,
      before ? [id, before, limit + 1] : [id, limit + 1],
    );
    const runs = rows.slice(0, limit).map(scheduleRunOf);
    const hasMore = rows.length > limit;
    return {
      data: runs.map(scheduleRunView),
      hasMore,
      nextCursor: hasMore ? encodeCursor(runs.at(-1)!.scheduledFor) : null,
    };
  }
}

const encodeCursor = (d: Date) => Buffer.from(d.toISOString()).toString('base64url');

function decodeCursor(cursor: string): Date {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const d = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(d.getTime())) {
    throw invalidField('cursor', 'is not a cursor this endpoint returned (use next_cursor)');
  }
  return d;
}

/** A run id: `run_` and a random suffix (runs are not a resource of their own in the spec). */
export const newRunId = () => `run_${randomBase36(20)}`;
