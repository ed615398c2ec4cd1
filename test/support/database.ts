import { createHash } from 'node:crypto';
import pg from 'pg';
import { MIGRATIONS } from '../../src/db/schema.js';
import { createOrm, migrate } from '../../src/db/orm.js';
import { adminDatabaseUrl } from './env.js';

/**
 * The template is named after the migrations it holds (names and code), so checkouts with
 * different migrations (branches, worktrees) sharing one server never clone each other's.
 */
const TEMPLATE = `gleaner_test_template_${createHash('sha256')
  .update(MIGRATIONS.map((m) => `${m.name}\n${String(m.class)}`).join('\n'))
  .digest('hex')
  .slice(0, 12)}`;

function urlFor(database: string): string {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

let templateReady: Promise<void> | null = null;

/**
 * A migrated template database, rebuilt once per test run (per worker process; an advisory
 * lock serialises workers). Cloning it is much faster than migrating each database.
 */
function ensureTemplate(): Promise<void> {
  return (templateReady ??= withAdmin(async (admin) => {
    await admin.query('select pg_advisory_lock(727100)');
    try {
      const exists = await admin.query('select 1 from pg_database where datname = $1', [TEMPLATE]);
      if (exists.rowCount === 0) await admin.query(`create database ${TEMPLATE}`);
      const orm = await createOrm({ connection: urlFor(TEMPLATE), poolSize: 1 });
      try {
        await migrate(orm, urlFor(TEMPLATE));
      } finally {
        await orm.close(true);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(727100)');
    }
  }));
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the test server, private to the caller. */
export async function createTestDatabase(): Promise<TestDatabase> {
  await ensureTemplate();
  const name = `gleaner_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  await withAdmin(async (admin) => {
    await admin.query('select pg_advisory_lock(727100)'); // a template must have no other connections while cloned
    try {
      await admin.query(`create database ${name} template ${TEMPLATE}`);
    } finally {
      await admin.query('select pg_advisory_unlock(727100)');
    }
  });
  return {
    url: urlFor(name),
    name,
    drop: () => withAdmin(async (admin) => void (await admin.query(`drop database if exists ${name} with (force)`))),
  };
}
