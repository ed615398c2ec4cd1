import type { EntityManager } from '@mikro-orm/postgresql';
import { exec, retryDeadlocks } from '../../db/sql.js';
import { AppError, errors } from '../../errors.js';
import { nextRun } from './cron/index.js';
import { FIRE_KIND, fireJobId, scheduleOf } from './schedule-rows.js';
import { earlyTiming, resolveTiming, timingModes, type TimingInput } from './schedule-timing.js';
import type { Schedule } from './schedule.entity.js';
import type { UpdateScheduleCommand } from './schedule.schema.js';
import type { ScheduleServiceDeps } from './schedule.service.js';

/** A schedule's endpoint, method and payload as a change leaves them (validated). */
interface Call {
  method: Schedule['method'];
  endpoint: string;
  payload: Record<string, unknown>;
}

/**
 * Pausing, resuming and updating schedules. Each change is one transaction holding the
 * schedule's row lock, as deleting and firing take it: a firing either began before the change
 * (its call finishes and is recorded) or sees the schedule as the change left it. A paused
 * schedule has no due time (`next_run_at` null) and no queued firing; its due times pass
 * without a run and are not caught up on resume.
 */
export class ScheduleChanges {
  constructor(
    private readonly deps: Pick<
      ScheduleServiceDeps,
      'orm' | 'queue' | 'work' | 'endpoints' | 'cronFromText' | 'now'
    > & {
      checkPayloadSize: (payload: Record<string, unknown>) => void;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** ENABLED → PAUSED: its queued firing goes, no run starts after this. Pausing a paused schedule changes nothing. */
  async pause(teamId: string, id: string): Promise<void> {
    await this.locked(teamId, id, 'pause', async (em, schedule) => {
      if (schedule.state === 'PAUSED') return;
      await unqueueNext(em, schedule);
      await exec(em, `update schedules set state = 'PAUSED', next_run_at = null where id = ?`, [id]);
    });
  }

  /**
   * PAUSED → ENABLED with its next due time after now (the ones that passed while it was
   * paused are not run); a 409 when it has none left. Resuming an enabled schedule changes nothing.
   */
  async resume(teamId: string, id: string): Promise<void> {
    const now = this.now();
    const resumed = await this.locked(teamId, id, 'resume', async (em, schedule) => {
      if (schedule.state === 'ENABLED') return false;
      const next = nextDueAfter(schedule, now);
      await exec(em, `update schedules set state = 'ENABLED', next_run_at = ? where id = ?`, [next, id]);
      await this.queueFiring(em, schedule, next);
      return true;
    });
    if (resumed) this.deps.work.notify();
  }

  /**
   * Applies the fields given, validated as creating validates them: the endpoint with the
   * method and payload it will be called with; a new timing (or time zone) from now, whose next
   * due time replaces the queued one (a paused schedule keeps it for its resume).
   */
  async update(teamId: string, id: string, command: UpdateScheduleCommand): Promise<void> {
    const current = await this.read(teamId, id);
    const now = this.now();
    const timingInput = timingInputOf(command, current);
    // Cheap checks first: a bad time zone or expression is refused before any DNS or model call.
    const early = timingInput ? earlyTiming(timingInput, now) : null;
    const call = await this.callOf(command, current);
    const timing = timingInput
      ? (early ?? (await resolveTiming(timingInput, { now, cronFromText: this.deps.cronFromText })))
      : null;
    // A new time zone alone keeps the text the expression came from.
    if (timing && timingModes(command).length === 0) timing.text = current.text;
    const moved = await this.locked(teamId, id, 'update', async (em, schedule) => {
      const next = timing && schedule.state === 'ENABLED' ? timing.firstRun : null;
      if (next) await unqueueNext(em, schedule);
      // Only what the command changes is written: a concurrent change of other fields stays.
      const set: [string, unknown][] = [];
      if (call) {
        set.push(
          ['method = ?', call.method],
          ['endpoint = ?', call.endpoint],
          ['payload = ?::jsonb', JSON.stringify(call.payload)],
        );
      }
      if (timing) {
        set.push(
          ['type = ?', timing.type],
          ['cron_expression = ?', timing.cronExpression],
          ['execute_at = ?', timing.executeAt],
          ['expression_timezone = ?', timing.timezone],
          ['text = ?', timing.text],
          ['description = ?', timing.description],
        );
      }
      if (next) set.push(['next_run_at = ?', next]);
      if (set.length === 0) return false;
      await exec(em, `update schedules set ${set.map(([column]) => column).join(', ')} where id = ?`, [
        ...set.map(([, value]) => value),
        id,
      ]);
      if (next) await this.queueFiring(em, schedule, next);
      return next !== null;
    });
    if (moved) this.deps.work.notify();
  }

  /** The method, endpoint and payload after `command`, validated; null when it changes none of them. */
  private async callOf(command: UpdateScheduleCommand, current: Schedule): Promise<Call | null> {
    if (command.method === undefined && command.endpoint === undefined && command.payload === undefined) return null;
    const call = {
      method: command.method ?? current.method,
      endpoint: command.endpoint ?? current.endpoint,
      payload: command.payload ?? current.payload,
    };
    if (command.payload !== undefined) this.deps.checkPayloadSize(command.payload);
    return { ...call, endpoint: await this.deps.endpoints.validate(call.method, call.endpoint, call.payload) };
  }

  private async read(teamId: string, id: string): Promise<Schedule> {
    const [row] = await exec(this.deps.orm.em.fork(), 'select * from schedules where id = ? and team_id = ?', [
      id,
      teamId,
    ]);
    if (!row) throw errors.notFound('schedule', id);
    const schedule = scheduleOf(row);
    if (schedule.state === 'DELETED') throw deleted(schedule, 'update');
    return schedule;
  }

  /**
   * Runs `change` on the schedule locked, in a transaction. A group of firings locks its jobs,
   * then their schedules; this locks the schedule, then its jobs: when the two cross, Postgres
   * rolls one back, and a rolled-back change runs again (as deleting does).
   */
  private locked<T>(
    teamId: string,
    id: string,
    action: string,
    change: (em: EntityManager, schedule: Schedule) => Promise<T>,
  ): Promise<T> {
    return retryDeadlocks(() =>
      this.deps.queue.transaction(async (em) => {
        const [row] = await exec(em, 'select * from schedules where id = ? and team_id = ? for update', [id, teamId]);
        if (!row) throw errors.notFound('schedule', id);
        const schedule = scheduleOf(row);
        if (schedule.state === 'DELETED') throw deleted(schedule, action);
        return change(em, schedule);
      }),
    );
  }

  private async queueFiring(em: EntityManager, schedule: Schedule, due: Date): Promise<void> {
    await this.deps.queue.enqueue(
      [
        {
          id: fireJobId(schedule.id, due),
          kind: FIRE_KIND,
          teamId: schedule.teamId,
          payload: { scheduleId: schedule.id, due: due.toISOString() },
          runAt: due,
        },
      ],
      em,
    );
  }
}

/**
 * What a change's timing is computed from: the timing `command` gives, or (a new time zone
 * alone) the schedule's own with that zone; null when the timing does not change.
 */
function timingInputOf(command: UpdateScheduleCommand, current: Schedule): TimingInput | null {
  if (timingModes(command).length > 0) {
    return { ...command, expression_timezone: command.expression_timezone ?? current.expressionTimezone };
  }
  if (command.expression_timezone === undefined) return null;
  return current.type === 'recurring'
    ? { cron_expression: current.cronExpression!, expression_timezone: command.expression_timezone }
    : { execute_at: current.executeAt!.toISOString(), expression_timezone: command.expression_timezone };
}

/** The first due time after `now` (a 409 when the schedule has none left). */
function nextDueAfter(schedule: Schedule, now: Date): Date {
  if (schedule.type === 'onetime') {
    if (schedule.executeAt && schedule.executeAt > now) return schedule.executeAt;
    throw ended(schedule, `its execute_at (${schedule.executeAt?.toISOString()}) passed while it was paused`);
  }
  const next = nextRun(schedule.cronExpression!, { timezone: schedule.expressionTimezone, after: now });
  if (next) return next;
  throw ended(schedule, `${schedule.cronExpression} has no run after ${now.toISOString()}`);
}

/** Removes the queued firing of the schedule's next due time (a firing under way finishes). */
async function unqueueNext(em: EntityManager, schedule: Schedule): Promise<void> {
  if (!schedule.nextRunAt) return;
  await exec(em, `delete from jobs where id = ? and status = 'queued'`, [fireJobId(schedule.id, schedule.nextRunAt)]);
}

function deleted(schedule: Schedule, action: string): AppError {
  return new AppError(
    'conflict',
    'schedule_deleted',
    `schedule ${schedule.id} is deleted (or has ended): there is nothing to ${action}`,
  );
}

function ended(schedule: Schedule, why: string): AppError {
  return new AppError(
    'conflict',
    'schedule_ended',
    `schedule ${schedule.id} has no run left to resume: ${why}; give it a new timing (PATCH) or delete it`,
  );
}
