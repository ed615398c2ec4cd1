import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import { APP_MODULES } from '../modules.js';
import { JobSchema } from '../workers/queue/job.entity.js';
import { BASE_MIGRATIONS } from './migrations/index.js';

/** Every entity: the job queue's and the modules' (the ORM is built from this list). */
export const ENTITIES: EntitySchema[] = [
  JobSchema as EntitySchema,
  ...APP_MODULES.flatMap((m) => [...(m.entities ?? [])]),
];

/**
 * Every migration, in name order: the base schema's (src/db/migrations) and each module's. A
 * name is applied once (recorded in `schema_migrations`); two with the same name are refused.
 */
export const MIGRATIONS: MigrationObject[] = collectMigrations();

function collectMigrations(): MigrationObject[] {
  const all = [...BASE_MIGRATIONS, ...APP_MODULES.flatMap((m) => [...(m.migrations ?? [])])];
  const names = new Set<string>();
  for (const m of all) {
    if (names.has(m.name)) throw new Error(`migration ${m.name} is declared twice`);
    names.add(m.name);
  }
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
