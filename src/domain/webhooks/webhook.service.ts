import { randomBytes } from 'node:crypto';
import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { Actor } from '../auth/actor.js';
import { Team } from '../auth/team.entity.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WEBHOOK_JOB } from './webhook-deliverer.js';
import { DELIVERIES_PAGE } from './webhook.schema.js';
import { WebhookEvent } from './webhook-event.entity.js';
import {
  webhookDeliveryView,
  type WebhookDeliveryRow,
  type WebhookDeliveryView,
  type WebhookEventView,
} from './webhook.view.js';

/** Which delivery attempts a list shows (all of the team's when nothing is given). */
export interface DeliveriesFilter {
  event_id?: string;
  resource_id?: string;
  event_type?: string;
  /** Only attempts the receiver answered 2xx (true), or only the others (false). */
  success?: boolean;
  cursor?: number;
  limit?: number;
}

/** What clients can see and do about their webhooks (extensions of the spec). */
export class WebhookService {
  constructor(
    private readonly orm: Orm,
    private readonly queue: JobQueue,
  ) {}

  /** Delivery attempts of the team, newest first, filtered by event, resource, type or outcome. */
  async deliveries(
    actor: Actor,
    query: DeliveriesFilter,
  ): Promise<{ deliveries: WebhookDeliveryView[]; nextCursor: number | null }> {
    const limit = query.limit ?? DELIVERIES_PAGE.default;
    const offset = query.cursor ?? 0;
    const where = ['a.team_id = ?'];
    const params: unknown[] = [actor.teamId];
    const filter = (sql: string, value: unknown) => value !== undefined && (where.push(sql), params.push(value));
    filter('a.event_id = ?', query.event_id);
    filter('e.resource_id = ?', query.resource_id);
    filter('e.type = ?', query.event_type);
    filter('coalesce(a.status_code between 200 and 299, false) = ?', query.success);
    const rows = await exec<WebhookDeliveryRow>(
      this.orm.em.fork(),
      `select a.id, a.event_id, a.attempt, a.url, a.status_code, a.duration_ms, a.error, a.created_at,
              e.type, e.resource_id, e.status as event_status
       from webhook_attempts a join webhook_events e on e.id = a.event_id
       where ${where.join(' and ')} order by a.created_at desc, a.id desc limit ? offset ?`,
      [...params, limit + 1, offset],
    );
    return {
      deliveries: rows.slice(0, limit).map(webhookDeliveryView),
      nextCursor: rows.length > limit ? offset + limit : null,
    };
  }

  /**
   * Sends an event again: the event of `deliveryId` starts a fresh series of attempts (same
   * event id, `delivery_attempt` from 1/5), whatever became of the earlier ones.
   */
  async redeliver(actor: Actor, deliveryId: string): Promise<WebhookEventView> {
    const em = this.orm.em.fork();
    const attempt = await em.findOne(WebhookAttempt, { id: deliveryId, teamId: actor.teamId });
    if (!attempt)
      throw new AppError('not_found', 'delivery_not_found', `delivery ${JSON.stringify(deliveryId)} does not exist`);
    const event = await em.findOneOrFail(WebhookEvent, { id: attempt.eventId });
    const conflict = () =>
      new AppError(
        'conflict',
        'delivery_in_progress',
        `event ${event.id} is being delivered right now; try again shortly`,
      );
    await em.transactional(async (tx) => {
      // The event's delivery job starts over (it may be gone: finished jobs are purged).
      if (!(await this.queue.restart(tx, { id: event.id, kind: WEBHOOK_JOB, teamId: event.teamId }))) throw conflict();
      event.status = 'pending';
      event.attempts = 0;
      event.deliveredAt = null;
      await tx.flush();
    });
    return { id: event.id, type: event.type, resourceId: event.resourceId, status: event.status };
  }

  /**
   * Turns on Standard Webhooks signatures for the team with a new secret (returned once);
   * calling again rotates it.
   */
  async rotateSigningSecret(actor: Actor): Promise<string> {
    const em = this.orm.em.fork();
    const team = await em.findOneOrFail(Team, { id: actor.teamId });
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    team.settings = { ...team.settings, webhookSigningSecret: secret };
    await em.flush();
    return secret;
  }

  async disableSigning(actor: Actor): Promise<void> {
    const em = this.orm.em.fork();
    const team = await em.findOneOrFail(Team, { id: actor.teamId });
    const { webhookSigningSecret: _removed, ...rest } = team.settings;
    team.settings = rest;
    await em.flush();
  }

  async signingEnabled(actor: Actor): Promise<boolean> {
    const team = await this.orm.em.fork().findOneOrFail(Team, { id: actor.teamId });
    return Boolean(team.settings.webhookSigningSecret);
  }
}
