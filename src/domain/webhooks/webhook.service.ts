import { randomBytes } from 'node:crypto';
import type { Orm } from '../../db/orm.js';
import { AppError } from '../../errors.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import type { Actor } from '../auth/actor.js';
import { Team } from '../auth/team.entity.js';
import { WebhookAttempt } from './webhook-attempt.entity.js';
import { WEBHOOK_JOB } from './webhook-deliverer.js';
import { WebhookEvent } from './webhook-event.entity.js';

export interface DeliveryView {
  attempt: WebhookAttempt;
  event: WebhookEvent;
}

/** What clients can see and do about their webhooks (extensions of the spec). */
export class WebhookService {
  constructor(
    private readonly orm: Orm,
    private readonly queue: JobQueue,
  ) {}

  /** Delivery attempts of the team, newest first. */
  async deliveries(
    actor: Actor,
    query: { event_id?: string; cursor?: number; limit?: number },
  ): Promise<{ deliveries: DeliveryView[]; nextCursor: number | null }> {
    const em = this.orm.em.fork();
    const limit = query.limit ?? 50;
    const offset = query.cursor ?? 0;
    const where = { teamId: actor.teamId, ...(query.event_id ? { eventId: query.event_id } : {}) };
    const [attempts, total] = await em.findAndCount(WebhookAttempt, where, {
      orderBy: { createdAt: 'desc', id: 'desc' },
      limit,
      offset,
    });
    const events = await em.find(WebhookEvent, { id: { $in: [...new Set(attempts.map((a) => a.eventId))] } });
    const byId = new Map(events.map((e) => [e.id, e]));
    return {
      deliveries: attempts.map((attempt) => ({ attempt, event: byId.get(attempt.eventId)! })),
      nextCursor: offset + attempts.length < total ? offset + attempts.length : null,
    };
  }

  /**
   * Sends an event again: the event of `deliveryId` starts a fresh series of attempts (same
   * event id, `delivery_attempt` from 1/5), whatever became of the earlier ones.
   */
  async redeliver(actor: Actor, deliveryId: string): Promise<WebhookEvent> {
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
    return event;
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
