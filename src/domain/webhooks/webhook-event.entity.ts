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
  createdAt: Date = new Date();
  deliveredAt: Date | null = null;
}

export const WebhookEventSchema = new EntitySchema<WebhookEvent>({
  class: WebhookEvent,
  tableName: 'webhook_events',
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
    createdAt: columns.createdAt(),
    deliveredAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
