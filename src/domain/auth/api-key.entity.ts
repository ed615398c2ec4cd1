import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

/** An API key: only its SHA-256 is stored; the secret is shown once at creation. */
export class ApiKey {
  id!: string;
  teamId!: string;
  name!: string;
  /** The first characters of the secret, shown in listings to tell keys apart. */
  prefix!: string;
  hash!: string;
  createdAt: Date = new Date();
  lastUsedAt: Date | null = null;
  revokedAt: Date | null = null;
}

export const ApiKeySchema = new EntitySchema<ApiKey>({
  class: ApiKey,
  tableName: 'api_keys',
  indexes: [{ name: 'api_keys_team_id_index', properties: ['teamId'] }],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    name: { type: 'string', columnType: 'text' },
    prefix: { type: 'string', columnType: 'text' },
    hash: { type: 'string', columnType: 'text', unique: 'api_keys_hash_unique' },
    createdAt: columns.createdAt(),
    lastUsedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
