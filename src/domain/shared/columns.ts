import { Team } from '../auth/team.entity.js';

/**
 * Column definitions every entity repeats. Each call returns a fresh object (MikroORM keeps
 * a reference to what it is given).
 */
export const columns = {
  /** A typed id (`scrape_…`) as the primary key. */
  id: () => ({ type: 'string', columnType: 'text', primary: true }) as const,
  /** The owning team; rows go with their team. */
  team: () =>
    ({
      kind: 'm:1',
      entity: () => Team,
      mapToPk: true,
      fieldName: 'team_id',
      deleteRule: 'cascade',
      columnType: 'text',
    }) as const,
  createdAt: () => ({ type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' }) as const,
  jsonb: () => ({ type: 'json', columnType: 'jsonb' }) as const,
};
