import { Migrator } from '@mikro-orm/migrations';
import pg from 'pg';
import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { ENTITIES, MIGRATIONS } from './schema.js';
import type { PgTarget } from './embedded/embedded-database.js';

export type Orm = MikroORM;

export interface OrmOptions {
  /** A postgres:// URL (server) or a target (the embedded database's socket). */
  connection: string | PgTarget;
  poolSize: number;
  /** Names this process in pg_stat_activity. */
  applicationName?: string;
}

/** MikroORM over Postgres, the same for the server and the embedded database. */
export async function createOrm(options: OrmOptions): Promise<Orm> {
  const connection: Partial<Options> =
    typeof options.connection === 'string'
      ? { clientUrl: options.connection }
      : {
          host: options.connection.host,
          port: options.connection.port,
          user: options.connection.user,
          password: options.connection.password,
          dbName: options.connection.database,
        };
  return MikroORM.init({
    driver: PostgreSqlDriver,
    ...connection,
    entities: ENTITIES,
    extensions: [Migrator],
    pool: { min: 0, max: options.poolSize, idleTimeoutMillis: 30_000 },
    driverOptions: { connection: { application_name: options.applicationName ?? 'gleaner' } },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    debug: false,
    discovery: { warnWhenNoEntities: true },
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'schema_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
  });
}

/** A `pg.Client`'s configuration for a connection of its own to the same database as the ORM. */
export function pgClientConfig(connection: string | PgTarget, applicationName?: string): pg.ClientConfig {
  const target = typeof connection === 'string' ? { connectionString: connection } : { ...connection };
  return applicationName ? { ...target, application_name: applicationName } : target;
}

/** Advisory lock key that serialises migrations across processes sharing a server. */
const MIGRATION_LOCK = 727_001;

/**
 * Applies pending migrations; safe when several processes start at once. The lock is held
 * on a connection of its own so the migrator can use the whole pool, whatever its size.
 */
export async function migrate(orm: Orm, connection: string | PgTarget): Promise<string[]> {
  const lock = new pg.Client(pgClientConfig(connection));
  await lock.connect();
  try {
    // A simple query (no parameters): one message, which the embedded database cannot interleave.
    await lock.query(`select pg_advisory_lock(${MIGRATION_LOCK})`);
    const applied = await orm.getMigrator().up();
    return applied.map((m) => m.name);
  } finally {
    await lock.end().catch(() => undefined);
  }
}
