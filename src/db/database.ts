import path from 'node:path';
import type { AppConfig } from '../config.js';
import { openEmbeddedDatabase, type EmbeddedDatabase, type PgTarget } from './embedded/embedded-database.js';
import { createOrm, migrate, type Orm } from './orm.js';

export interface Database {
  orm: Orm;
  kind: 'server' | 'embedded';
  /** How other threads of this process connect (Bree jobs open their own pools). */
  connection: string | PgTarget;
  /** Names of migrations applied by this start. */
  migrated: string[];
  /**
   * Whether commits are flushed to disk (the server's `fsync` setting): a server normally does;
   * the embedded PGlite does not (a crash of the process loses nothing, a power loss may).
   */
  flushesCommits: boolean;
  /** Resolves when a trivial query succeeds; rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  applicationName?: string;
  /** Apply pending migrations (the API and `all` roles do; a worker thread need not). */
  migrate?: boolean;
  /** Embedded database in memory (tests); ignored when config.database.url is set. */
  inMemory?: boolean;
  /** Connect here (a worker thread reuses its process's database: the URL, or the embedded socket). */
  connection?: string | PgTarget;
}

/**
 * With DATABASE_URL: that Postgres server. Without: the embedded PGlite database in
 * DATA_DIR/pglite, owned by one process and reached by every other through its socket.
 */
export async function openDatabase(config: AppConfig, options: OpenDatabaseOptions = {}): Promise<Database> {
  let embedded: EmbeddedDatabase | null = null;
  let connection: string | PgTarget;
  if (options.connection) {
    connection = options.connection;
  } else if (config.database.url) {
    connection = config.database.url;
  } else {
    embedded = await openEmbeddedDatabase(options.inMemory ? null : path.join(config.dataDir));
    connection = embedded.target;
  }
  let orm: Orm;
  try {
    orm = await createOrm({ connection, poolSize: config.database.poolSize, applicationName: options.applicationName });
  } catch (err) {
    await embedded?.close();
    throw err;
  }
  const migrated = options.migrate === false ? [] : await migrate(orm, connection);
  const [fsync] = await orm.em.getConnection().execute<{ fsync: string }[]>('show fsync');
  return {
    orm,
    kind: typeof connection === 'string' ? 'server' : 'embedded',
    connection,
    migrated,
    flushesCommits: fsync?.fsync !== 'off',
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`database did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([orm.em.getConnection().execute('select 1'), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await orm.close(true);
      await embedded?.close();
    },
  };
}
