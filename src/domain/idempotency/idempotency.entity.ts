import { EntitySchema } from '@mikro-orm/core';
import { Team } from '../auth/team.entity.js';

/**
 * One `Idempotency-Key` of a team: the request it was first used with and, once that
 * finished, the response to replay. `lockedUntil` bounds how long an in-flight record
 * blocks retries if its process died.
 */
export class IdempotencyRecord {
  teamId!: string;
  key!: string;
  requestHash!: string;
  state!: 'in_progress' | 'completed';
  statusCode: number | null = null;
  responseBody: string | null = null;
  responseHeaders: Record<string, string> | null = null;
  lockedUntil: Date | null = null;
  createdAt: Date = new Date();
  expiresAt!: Date;
}

export const IdempotencyRecordSchema = new EntitySchema<IdempotencyRecord>({
  class: IdempotencyRecord,
  tableName: 'idempotency_keys',
  indexes: [{ name: 'idempotency_keys_expires_at_index', properties: ['expiresAt'] }],
  properties: {
    teamId: {
      kind: 'm:1',
      entity: () => Team,
      mapToPk: true,
      primary: true,
      fieldName: 'team_id',
      deleteRule: 'cascade',
      columnType: 'text',
    },
    key: { type: 'string', columnType: 'text', primary: true },
    requestHash: { type: 'string', columnType: 'text' },
    state: { type: 'string', columnType: 'text' },
    statusCode: { type: 'integer', nullable: true },
    responseBody: { type: 'text', nullable: true },
    responseHeaders: { type: 'json', columnType: 'jsonb', nullable: true },
    lockedUntil: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
