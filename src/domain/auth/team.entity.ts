import { EntitySchema } from '@mikro-orm/core';

/** Per-team settings; every field optional so new ones need no migration. */
export interface TeamSettings {
  /** Standard Webhooks signing secret (`whsec_...`); signatures are sent only when set. */
  webhookSigningSecret?: string;
}

/** Every resource belongs to a team; ids of another team's resources answer 404. */
export class Team {
  id!: string;
  name!: string;
  /** The identity provider's name for this team (the JWT team claim), when it came from there. */
  externalRef: string | null = null;
  settings: TeamSettings = {};
  createdAt: Date = new Date();
}

export const TeamSchema = new EntitySchema<Team>({
  class: Team,
  tableName: 'teams',
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    name: { type: 'string', columnType: 'text' },
    externalRef: { type: 'string', columnType: 'text', nullable: true, unique: 'teams_external_ref_unique' },
    settings: { type: 'json', columnType: 'jsonb', default: "'{}'" },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
