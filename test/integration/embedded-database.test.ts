import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded/embedded-database.js';
import { tempDir } from '../support/config.js';

// The embedded database is PGlite behind pglite-socket. These pin what the design relies on.
describe('embedded database', () => {
  const dir = tempDir('gleaner-embedded-');
  let owner: EmbeddedDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    owner = await openEmbeddedDatabase(dir);
    pool = new pg.Pool({ ...owner.target, max: 10 });
    await pool.query('create table t (id int primary key, v text)');
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await owner?.close();
  });

  it('is owned by the first process and served on a private unix socket', () => {
    expect(owner.owner).toBe(true);
    expect(owner.target.host).toBe(path.join(dir, 'run'));
  });

  it('keeps concurrent connections apart (extended protocol with different statements)', async () => {
    const statements = [
      'select $1::int as a, $2::text as b',
      'select $2::text as b, $1::int + 0 as a, 1 as z',
      "select $1::int as a, $2::text || '' as b, 2 as y",
    ];
    const results = await Promise.all(
      Array.from({ length: 600 }, async (_, i) => {
        const r = await pool.query(statements[i % 3]!, [i, `x${i}`]);
        return r.rows[0].a === i && r.rows[0].b === `x${i}` && Object.keys(r.rows[0]).length === (i % 3 === 0 ? 2 : 3);
      }),
    );
    expect(results.every(Boolean)).toBe(true);
  });

  it('keeps concurrent transactions apart', async () => {
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const c = await pool.connect();
        try {
          await c.query('begin');
          await c.query('insert into t values ($1, $2)', [i, `v${i}`]);
          expect((await c.query('select v from t where id = $1', [i])).rows[0].v).toBe(`v${i}`);
          await c.query(i % 3 === 0 ? 'rollback' : 'commit');
        } finally {
          c.release();
        }
      }),
    );
    expect((await pool.query('select count(*)::int as n from t')).rows[0].n).toBe(40);
  });

  it('lets a second opener attach instead of opening the directory twice', async () => {
    const second = await openEmbeddedDatabase(dir);
    expect(second.owner).toBe(false);
    const client = new pg.Client(second.target);
    await client.connect();
    expect((await client.query('select count(*)::int as n from t')).rows[0].n).toBe(40);
    await client.end();
    await second.close();
    expect((await pool.query('select 1 as ok')).rows[0].ok).toBe(1); // the owner is unaffected
  });
});

describe('embedded database lock', () => {
  it('takes over a lock left by a process that died', { timeout: 120_000 }, async () => {
    const dir = tempDir('gleaner-stale-');
    writeFileSync(
      path.join(dir, 'pglite.lock'),
      JSON.stringify({ pid: 2 ** 22 + 12345, hostname: os.hostname(), state: 'ready', port: 1 }),
    );
    const db = await openEmbeddedDatabase(dir);
    expect(db.owner).toBe(true);
    await db.close();
  });

  it('refuses a directory locked from another machine', async () => {
    const dir = tempDir('gleaner-foreign-');
    writeFileSync(
      path.join(dir, 'pglite.lock'),
      JSON.stringify({ pid: 1, hostname: 'elsewhere', state: 'ready', port: 1 }),
    );
    await expect(openEmbeddedDatabase(dir)).rejects.toThrow(/held by process 1 on elsewhere/);
  });
});
