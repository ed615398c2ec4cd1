import type { Logger } from '../../logger.js';
import type { ModuleEvent } from '../../pubsub/events.js';
import type { PubSub } from '../../pubsub/pubsub.js';

/** Provisioning phases (the creation stream's `phase` events), in order. */
export const PROVISIONING_PHASES = ['planning', 'resolving_sources', 'first_snapshot', 'scheduling'] as const;

/** Steps of a run, in order (`run_completed` or `run_failed` last). */
export const RUN_STEPS = ['run_started', 'fetching', 'comparing', 'notifying', 'run_completed', 'run_failed'] as const;

export type MonitorPhase =
  | (typeof PROVISIONING_PHASES)[number]
  | (typeof RUN_STEPS)[number]
  | 'reasoning_token'
  | 'provisioned'
  | 'provisioning_failed';

/**
 * `monitor.progress`: one step of a monitor's provisioning or of a run, on the monitor's
 * channel (`monitor:<id>`) and its team's. The creation stream, the `monitorProgress`
 * subscription and the progress SSE stream all read these.
 */
export interface MonitorProgressEvent extends ModuleEvent {
  type: 'monitor.progress';
  monitorId: string;
  phase: MonitorPhase;
  message: string;
  runId: string | null;
  /** The source a `fetching` step is about. */
  source: string | null;
  /** A reasoning token (phase `reasoning_token`). */
  token: string | null;
}

/** `monitor.event`: an event a run recorded (after it is committed). */
export interface MonitorEventPublished extends ModuleEvent {
  type: 'monitor.event';
  monitorId: string;
  eventId: string;
  eventType: string;
  runId: string;
  changed: boolean;
  summary: string;
}

/** Publishes a monitor's progress; a failed publish is logged, never fails the work. */
export class MonitorProgress {
  constructor(
    private readonly pubsub: PubSub,
    private readonly logger: Logger,
  ) {}

  async phase(
    monitor: { id: string; teamId: string },
    phase: MonitorPhase,
    message: string,
    extra: { runId?: string | null; source?: string | null; token?: string | null } = {},
  ): Promise<void> {
    const event: MonitorProgressEvent = {
      type: 'monitor.progress',
      teamId: monitor.teamId,
      subject: { kind: 'monitor', id: monitor.id },
      at: Date.now(),
      monitorId: monitor.id,
      phase,
      message,
      runId: extra.runId ?? null,
      source: extra.source ?? null,
      token: extra.token ?? null,
    };
    await this.pubsub.publish(event).catch((err: unknown) => {
      this.logger.warn({ err, monitor: monitor.id }, 'publishing monitor progress failed');
    });
  }

  async event(
    monitor: { id: string; teamId: string },
    e: { eventId: string; eventType: string; runId: string; changed: boolean; summary: string },
  ): Promise<void> {
    const event: MonitorEventPublished = {
      type: 'monitor.event',
      teamId: monitor.teamId,
      subject: { kind: 'monitor', id: monitor.id },
      at: Date.now(),
      monitorId: monitor.id,
      ...e,
    };
    await this.pubsub.publish(event).catch((err: unknown) => {
      this.logger.warn({ err, monitor: monitor.id }, 'publishing a monitor event failed');
    });
  }
}
