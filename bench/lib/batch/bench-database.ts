import pg from 'pg';

/** One connection to the database, as `pg_stat_activity` shows it. */
export interface Backend {
  pid: number;
  application: string;
  /** `active`, `idle`, `idle in transaction`, ... */
  state: string;
  /** `Lock` while waiting for a row or transaction lock; null when not waiting. */
  waitEventType: string | null;
}

export interface BenchDatabase {
  /** The new database's URL (the service migrates it on its first start). */
  url: string;
  name: string;
  /** The server's processes serving this database now: `application_name`, state and wait event of each. */
  backends(): Promise<Backend[]>;
  /** Drops the database (`with (force)`: connections left behind by a crash do not keep it). */
  drop(): Promise<void>;
}

/**
 * Creates an empty database on a PostgreSQL server for one benchmark run, so that the API and
 * every worker process share it, and nothing of another run (or another engineer's tests on the
 * same server) is in it. `adminUrl` names a database to connect to for CREATE/DROP (`postgres`).
 *
 * @example
 * const db = await createBenchDatabase('postgres://postgres@127.0.0.1:5432/postgres');
 * try { ... db.url ... } finally { await db.drop(); }
 */
export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const name = `gleaner_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  try {
    await admin.query(`create database ${name}`);
  } catch (err) {
    await admin.end();
    throw err;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async backends() {
      const { rows } = await admin.query<{
        pid: number;
        application_name: string;
        state: string | null;
        wait_event_type: string | null;
      }>('select pid, application_name, state, wait_event_type from pg_stat_activity where datname = $1', [name]);
      return rows.map((r) => ({
        pid: r.pid,
        application: r.application_name,
        state: r.state ?? '',
        waitEventType: r.wait_event_type,
      }));
    },
    async drop() {
      try {
        await admin.query(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}
