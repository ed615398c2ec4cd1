import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

export type WebhookEventStatus = 'pending' | 'delivering' | 'delivered' | 'failed';

/**
 * The webhook outbox: one row per event, written in the same transaction as the change it
 * announces. Its id is the event id every attempt carries; (type, resource_id) is unique, so
 * a resource completes at most once.
 */
export class WebhookEvent {
  id!: string;
  teamId!: string;
  /** `batch.completed`, `crawl.completed`. */
  type!: string;
  resourceId!: string;
  url!: string;
  data: Record<string, unknown> = {};
  status: WebhookEventStatus = 'pending';
  attempts = 0;
  nextAttemptAt: Date = new Date();
  leaseOwner: string | null = null;
  leaseExpiresAt: Date | null = null;
  createdAt: Date = new Date();
  deliveredAt: Date | null = null;
}

export const WebhookEventSchema = new EntitySchema<WebhookEvent>({
  class: WebhookEvent,
  tableName: 'webhook_events',
  indexes: [{ name: 'webhook_events_status_next_attempt_at_index', properties: ['status', 'nextAttemptAt'] }],
  uniques: [{ name: 'webhook_events_type_resource_id_unique', properties: ['type', 'resourceId'] }],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    type: { type: 'string', columnType: 'text' },
    resourceId: { type: 'string', columnType: 'text' },
    url: { type: 'string', columnType: 'text' },
    data: columns.jsonb(),
    status: { type: 'string', columnType: 'text' },
    attempts: { type: 'integer', default: 0 },
    nextAttemptAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    leaseOwner: { type: 'text', nullable: true },
    leaseExpiresAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: columns.createdAt(),
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
