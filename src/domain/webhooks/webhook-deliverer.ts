import type { Orm } from '../../db/orm.js';
import type { GuardedAgents } from '../../engine/guarded-agents.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import { Team } from '../auth/team.entity.js';
import { sendWebhook } from './webhook-sender.js';

/** Attempts per event (spec: 5 within about 30 minutes). */
export const MAX_WEBHOOK_ATTEMPTS = 5;
/** Wait before attempt 2, 3, 4, 5 (spec: about 2, 4, 7 and 15 minutes). */
export const RETRY_DELAYS_MS = [2, 4, 7, 15].map((m) => m * 60_000);

export interface DelivererSettings {
  timeoutMs: number;
  /** Factor on RETRY_DELAYS_MS (WEBHOOK_RETRY_SCALE): 0.001 turns minutes into tenths of seconds. */
  retryScale: number;
}

interface ClaimedEvent {
  id: string;
  team_id: string;
  type: string;
  url: string;
  data: Record<string, unknown>;
  attempts: number;
}

/**
 * Delivers the outbox: claims due events (FOR UPDATE SKIP LOCKED, leased), POSTs the spec's
 * envelope, records every attempt, and schedules the next one until a 2xx or the 5th attempt.
 * The event id is the same on every attempt; receivers deduplicate by it.
 */
export class WebhookDeliverer {
  constructor(
    private readonly orm: Orm,
    private readonly agents: GuardedAgents,
    private readonly settings: DelivererSettings,
    private readonly logger: Logger,
  ) {}

  /** Delivers up to `max` due events; returns how many were attempted. */
  async deliverDue(owner: string, max = 10): Promise<number> {
    const leaseSeconds = (this.settings.timeoutMs + 30_000) / 1000;
    const events = await this.orm.em.getConnection().execute<ClaimedEvent[]>(
      `update webhook_events set status = 'delivering', attempts = attempts + 1, lease_owner = ?,
         lease_expires_at = now() + make_interval(secs => ?)
       where id in (select id from webhook_events where status = 'pending' and next_attempt_at <= now()
                    order by next_attempt_at limit ? for update skip locked)
       returning id, team_id, type, url, data, attempts`,
      [owner, leaseSeconds, max],
    );
    await Promise.all(events.map((event) => this.deliver(owner, event)));
    return events.length;
  }

  private async deliver(owner: string, event: ClaimedEvent): Promise<void> {
    const body = JSON.stringify({
      id: event.id,
      object: `event.${event.type}`,
      timestamp: Date.now(),
      delivery_attempt: `${event.attempts}/${MAX_WEBHOOK_ATTEMPTS}`,
      data: event.data,
    });
    const team = await this.orm.em.fork().findOne(Team, { id: event.team_id });
    const result = await sendWebhook(
      { url: event.url, eventId: event.id, body, signingSecret: team?.settings.webhookSigningSecret ?? null },
      this.agents,
      this.settings.timeoutMs,
    );
    const last = event.attempts >= MAX_WEBHOOK_ATTEMPTS;
    const delayMs = (RETRY_DELAYS_MS[event.attempts - 1] ?? 0) * this.settings.retryScale;
    const next = result.ok ? 'delivered' : last ? 'failed' : 'pending';
    await this.orm.em.fork().transactional(async (em) => {
      const conn = em.getConnection();
      const ctx = em.getTransactionContext();
      await conn.execute(
        `insert into webhook_attempts (id, event_id, team_id, attempt, url, status_code, duration_ms, error, created_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, now())`,
        [
          newId('delivery'),
          event.id,
          event.team_id,
          event.attempts,
          event.url,
          result.statusCode,
          result.durationMs,
          result.error,
        ],
        'run',
        ctx,
      );
      await conn.execute(
        `update webhook_events set status = ?, lease_owner = null, lease_expires_at = null,
           next_attempt_at = now() + make_interval(secs => ?), delivered_at = case when ? then now() else null end
         where id = ? and lease_owner = ?`,
        [next, delayMs / 1000, result.ok, event.id, owner],
        'run',
        ctx,
      );
    });
    const log = result.ok ? this.logger.debug.bind(this.logger) : this.logger.warn.bind(this.logger);
    log(
      { event_id: event.id, attempt: event.attempts, status: result.statusCode, error: result.error, next },
      'webhook attempt',
    );
  }
}

/** Events whose deliverer died mid-attempt go back to pending (the attempt stays counted). */
export async function reapWebhookEvents(orm: Orm): Promise<number> {
  const rows = await orm.em.getConnection().execute<{ id: string }[]>(
    `update webhook_events set status = case when attempts >= ? then 'failed' else 'pending' end,
       lease_owner = null, lease_expires_at = null, next_attempt_at = now()
     where status = 'delivering' and lease_expires_at < now() returning id`,
    [MAX_WEBHOOK_ATTEMPTS],
  );
  return rows.length;
}
