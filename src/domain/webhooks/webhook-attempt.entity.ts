import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';
import { WebhookEvent } from './webhook-event.entity.js';

/** One delivery attempt of an event: what the receiver answered, or why it could not. */
export class WebhookAttempt {
  id!: string;
  eventId!: string;
  teamId!: string;
  attempt!: number;
  url!: string;
  statusCode: number | null = null;
  durationMs!: number;
  error: string | null = null;
  createdAt: Date = new Date();
}

export const WebhookAttemptSchema = new EntitySchema<WebhookAttempt>({
  class: WebhookAttempt,
  tableName: 'webhook_attempts',
  indexes: [{ name: 'webhook_attempts_team_id_created_at_index', properties: ['teamId', 'createdAt'] }],
  properties: {
    id: columns.id(),
    eventId: {
      kind: 'm:1',
      entity: () => WebhookEvent,
      mapToPk: true,
      fieldName: 'event_id',
      deleteRule: 'cascade',
      columnType: 'text',
    },
    teamId: { type: 'string', columnType: 'text' },
    attempt: { type: 'integer' },
    url: { type: 'string', columnType: 'text' },
    statusCode: { type: 'integer', nullable: true },
    durationMs: { type: 'integer' },
    error: { type: 'text', nullable: true },
    createdAt: columns.createdAt(),
  },
});
