import pg from 'pg';
import { adminDatabaseUrl } from './env.js';

/** Fails fast with a clear message when the Postgres server the suite needs is not running. */
export default async function setup(): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    throw new Error(
      `The test suite needs PostgreSQL at ${adminDatabaseUrl()} (set TEST_DATABASE_URL to change it): ${(err as Error).message}`,
      { cause: err },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
