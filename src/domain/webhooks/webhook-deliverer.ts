import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { GuardedAgents } from '../../engine/guarded-agents.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { JobKindSpec } from '../../workers/queue/job-kind.js';
import type { JobHandler } from '../../workers/queue/job-worker.js';
import { sendWebhook, type WebhookResponse } from './webhook-sender.js';

export const WEBHOOK_JOB = 'webhook.delivery';
/** Attempts per event (spec: 5 within about 30 minutes). */
export const MAX_WEBHOOK_ATTEMPTS = 5;
/** Wait before attempt 2, 3, 4, 5 (spec: about 2, 4, 7 and 15 minutes). */
export const RETRY_DELAYS_MS = [2, 4, 7, 15].map((m) => m * 60_000);

export interface DelivererSettings {
  timeoutMs: number;
  /** Factor on RETRY_DELAYS_MS (WEBHOOK_RETRY_SCALE): 0.001 turns minutes into tenths of seconds. */
  retryScale: number;
}

interface EventRow {
  id: string;
  team_id: string;
  type: string;
  url: string;
  data: Record<string, unknown>;
  signing_secret: string | null;
}

/** The delivery kind: one job per event (its id is the event's); the spec's retry schedule. */
export function webhookDeliveryKind(settings: DelivererSettings): JobKindSpec {
  return {
    kind: WEBHOOK_JOB,
    maxAttempts: MAX_WEBHOOK_ATTEMPTS,
    leaseMs: settings.timeoutMs + 30_000,
    backoff: (attempt) => (RETRY_DELAYS_MS[attempt - 1] ?? 0) * settings.retryScale,
    // A deliverer that died on the last attempt: the event failed.
    onFailed: async (em, job) => {
      await exec(em, `update webhook_events set status = 'failed' where id = ?`, [job.id]);
    },
  };
}

/**
 * Delivers one event: POSTs the spec's envelope (`delivery_attempt` n/5, the same event id on
 * every attempt), records the attempt, and ends the job — delivered on a 2xx, retried on the
 * spec's schedule otherwise, failed after the 5th attempt.
 */
export function webhookDeliveryHandler(
  orm: Orm,
  agents: GuardedAgents,
  settings: DelivererSettings,
  logger: Logger,
): JobHandler {
  return async (job, { queue }) => {
    const [event] = await exec<EventRow>(
      orm.em.fork(),
      `update webhook_events e set status = 'delivering', attempts = ?
       from teams t where e.id = ? and t.id = e.team_id
       returning e.id, e.team_id, e.type, e.url, e.data, t.settings->>'webhookSigningSecret' as signing_secret`,
      [job.attempts, job.id],
    );
    if (!event) {
      await queue.transaction((em) => queue.complete(em, job)); // the event is gone (retention, team deleted)
      return;
    }
    const body = JSON.stringify({
      id: event.id,
      object: `event.${event.type}`,
      timestamp: Date.now(),
      delivery_attempt: `${job.attempts}/${MAX_WEBHOOK_ATTEMPTS}`,
      data: event.data,
    });
    const result = await sendWebhook(
      { url: event.url, eventId: event.id, body, signingSecret: event.signing_secret },
      agents,
      settings.timeoutMs,
    );
    const last = job.attempts >= job.maxAttempts;
    const next = result.ok ? 'delivered' : last ? 'failed' : 'pending';
    await queue.transaction(async (em) => {
      const error = { code: 'webhook_failed', message: result.error ?? `HTTP ${result.statusCode}` };
      const held =
        next === 'delivered'
          ? await queue.complete(em, job)
          : next === 'failed'
            ? (await queue.fail(em, job.id, job.owner, error)) !== null
            : await queue.retry(em, job, error, (RETRY_DELAYS_MS[job.attempts - 1] ?? 0) * settings.retryScale);
      if (!held) return;
      await recordAttempt(em, event, job.attempts, result);
      await exec(
        em,
        `update webhook_events set status = ?, delivered_at = case when ? then now() else delivered_at end where id = ?`,
        [next, result.ok, event.id],
      );
    });
    const log = result.ok ? logger.debug.bind(logger) : logger.warn.bind(logger);
    log(
      { event_id: event.id, attempt: job.attempts, status: result.statusCode, error: result.error, next },
      'webhook attempt',
    );
  };
}

async function recordAttempt(
  em: Parameters<typeof exec>[0],
  event: EventRow,
  attempt: number,
  result: WebhookResponse,
): Promise<void> {
  await exec(
    em,
    `insert into webhook_attempts (id, event_id, team_id, attempt, url, status_code, duration_ms, error, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, now())`,
    [
      newId('delivery'),
      event.id,
      event.team_id,
      attempt,
      event.url,
      result.statusCode,
      result.durationMs,
      result.error,
    ],
  );
}
