import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

// The smoke subset: the same core flows on the Postgres server and on embedded PGlite.
describe.each(['postgres', 'pglite'] as const)('smoke on %s', (database) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      database,
      workers: true,
      config: {
        workers: { threads: 1, concurrency: 4, hostConcurrency: 4, leaseMs: 5000, maxAttempts: 2, retryBaseMs: 100 },
      },
    });
  }, 120_000);
  afterAll(() => app?.close());

  it('migrations and entities agree (empty schema diff)', async () => {
    const diff = await app.container.db.orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });

  it('authenticates, creates, lists and revokes keys', async () => {
    const created = (await (await app.request('/v1/api-keys', { method: 'POST', json: { name: 'smoke' } })).json()) as {
      id: string;
      key: string;
    };
    expect((await app.request('/v1/me', { key: created.key })).status).toBe(200);
    await app.request(`/v1/api-keys/${created.id}`, { method: 'DELETE' });
    expect((await app.request('/v1/me', { key: created.key })).status).toBe(401);
  });

  it('replays an idempotent POST', async () => {
    const send = () =>
      app.request('/v1/api-keys', { method: 'POST', json: { name: 'i' }, headers: { 'idempotency-key': 'smoke-1' } });
    const first = await (await send()).json();
    const again = await send();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(first);
  });

  it('answers GraphQL', async () => {
    const res = await app.request('/graphql', { method: 'POST', json: { query: '{ me { teamId } }' } });
    expect(await res.json()).toEqual({ data: { me: { teamId: app.teamId } } });
  });

  it('keeps teams apart', async () => {
    const other = await app.otherTeam();
    const theirs = (await (await app.request('/v1/api-keys', { key: other.key })).json()) as { data: { id: string }[] };
    const res = await app.request(`/v1/api-keys/${theirs.data[0]!.id}`, { method: 'DELETE' });
    expect(res.status).toBe(404);
  });

  it('runs a batch to completion on worker threads sharing the database', async () => {
    const res = await app.request('/v1/batches', {
      method: 'POST',
      json: {
        items: [
          { custom_id: 'a', url: 'http://no-such-host.invalid/a' },
          { custom_id: 'b', url: 'http://no-such-host.invalid/b' },
        ],
      },
    });
    const batch = (await res.json()) as { id: string };
    await expect
      .poll(async () => ((await (await app.request(`/v1/batches/${batch.id}`)).json()) as { status: string }).status, {
        timeout: 60_000,
      })
      .toBe('completed');
    const items = (await (await app.request(`/v1/batches/${batch.id}/items?status=failed`)).json()) as {
      items_count: number;
    };
    expect(items.items_count).toBe(2);
  });

  it('is ready', async () => {
    expect(await (await fetch(`${app.url}/readyz`)).json()).toEqual({
      status: 'ready',
      database: database === 'pglite' ? 'embedded' : 'server',
    });
  });

  it('flushes objects to disk exactly when the database flushes its commits', () => {
    // PGlite runs with fsync off; the test server with Postgres's default (on). Local objects
    // follow the database: flushing them would not make a row's content outlive the row.
    expect(app.container.db.flushesCommits).toBe(database !== 'pglite');
  });
});
