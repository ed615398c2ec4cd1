import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let app: TestApp;
let slowCalls = 0;
let failNext = false;

beforeAll(async () => {
  app = await startTestApp();
  // Routes standing in for slow and flaky operations, behind the same middleware as every POST.
  app.server.http.app.post('/v1/_test/slow', async (c) => {
    slowCalls++;
    await new Promise((r) => setTimeout(r, 500));
    return c.json({ n: slowCalls }, 200);
  });
  app.server.http.app.post('/v1/_test/flaky', (c) => {
    if (failNext) {
      failNext = false;
      return c.json({ error: 'upstream' }, 502);
    }
    return c.json({ ok: true }, 200);
  });
});
afterAll(() => app?.close());

const post = (path: string, key: string, json: unknown, apiKey?: string) =>
  app.request(path, { method: 'POST', json, headers: { 'idempotency-key': key }, ...(apiKey ? { key: apiKey } : {}) });

describe('Idempotency-Key', () => {
  it('returns the stored response for the same key and body, without running twice', async () => {
    const first = await post('/v1/api-keys', 'same-1', { name: 'idem' });
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string; key: string };
    const again = await post('/v1/api-keys', 'same-1', { name: 'idem' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(created);
    const keys = (await (await app.request('/v1/api-keys')).json()) as { data: { name: string }[] };
    expect(keys.data.filter((k) => k.name === 'idem')).toHaveLength(1);
  });

  it('answers 422 when the key is reused with a different body', async () => {
    await post('/v1/api-keys', 'reuse-1', { name: 'a' });
    const res = await post('/v1/api-keys', 'reuse-1', { name: 'b' });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: 'idempotency_key_reuse', title: 'Unprocessable Entity' });
  });

  it('answers 409 while the first request is in flight', async () => {
    const first = post('/v1/_test/slow', 'inflight-1', { x: 1 });
    await new Promise((r) => setTimeout(r, 150));
    const second = await post('/v1/_test/slow', 'inflight-1', { x: 1 });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({ code: 'idempotency_key_in_progress' });
    expect(second.headers.get('retry-after')).toBe('1');
    expect((await first).status).toBe(200);
    const replay = await post('/v1/_test/slow', 'inflight-1', { x: 1 });
    expect(await replay.json()).toEqual({ n: 1 });
    expect(slowCalls).toBe(1);
  });

  it('does not consume the key on a 5xx', async () => {
    failNext = true;
    expect((await post('/v1/_test/flaky', 'flaky-1', {})).status).toBe(502);
    const retry = await post('/v1/_test/flaky', 'flaky-1', {});
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays a 4xx answer (the request itself was wrong)', async () => {
    const bad = await post('/v1/api-keys', 'bad-1', { name: 7 });
    expect(bad.status).toBe(400);
    const again = await post('/v1/api-keys', 'bad-1', { name: 7 });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per team', async () => {
    const other = await app.otherTeam();
    await post('/v1/api-keys', 'team-1', { name: 'mine' });
    const theirs = await post('/v1/api-keys', 'team-1', { name: 'theirs' }, other.key);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses a malformed key', async () => {
    const res = await post('/v1/api-keys', 'has space', { name: 'x' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^Idempotency-Key:/);
  });

  it('forgets keys after their lifetime', async () => {
    await post('/v1/api-keys', 'old-1', { name: 'old' });
    await app.container.db.orm.em
      .getConnection()
      .execute(`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'old-1'`);
    const reused = await post('/v1/api-keys', 'old-1', { name: 'new' });
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
  });

  it('purges expired keys', async () => {
    await post('/v1/api-keys', 'old-2', { name: 'older' });
    const conn = app.container.db.orm.em.getConnection();
    await conn.execute(`update idempotency_keys set expires_at = now() - interval '1 second' where key = 'old-2'`);
    expect(await app.container.services.idempotency.purgeExpired()).toBe(1);
    const left = await conn.execute(`select count(*)::int as n from idempotency_keys where key = 'old-2'`);
    expect(left[0]!.n).toBe(0);
  });
});
