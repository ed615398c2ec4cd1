import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { captureLogs } from '../support/log-capture.js';

let app: TestApp;
const logs = captureLogs();

beforeAll(async () => {
  app = await startTestApp({ logger: logs.logger });
  // A route that fails the way a bug would, to see the masked 500.
  app.server.http.app.get('/v1/_test/boom', () => {
    throw new Error('secret connection string postgres://u:p@db');
  });
});
afterAll(() => app?.close());

async function envelope(res: Response) {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ object: 'error', status: res.status });
  expect(body.id).toMatch(/^error_[0-9a-z]{20}$/);
  expect(typeof body.created).toBe('number');
  expect(typeof body.title).toBe('string');
  expect(body.metadata).toBeTypeOf('object');
  return body;
}

async function keyCount(): Promise<number> {
  const rows = await app.container.db.orm.em
    .getConnection()
    .execute<{ n: number }[]>('select count(*)::int as n from api_keys');
  return rows[0]!.n;
}

describe('error envelope', () => {
  it('answers an unknown route with 404 in the envelope', async () => {
    const body = await envelope(await app.request('/v1/nothing-here'));
    expect(body).toMatchObject({ code: 'route_not_found', status: 404, detail: 'no route for GET /v1/nothing-here' });
    expect(body.type).toBe(`${app.url}/docs/api-reference/errors/not_found`);
  });

  it('answers malformed JSON with 400 and writes nothing', async () => {
    const before = await keyCount();
    const res = await app.request('/v1/api-keys', {
      method: 'POST',
      body: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect((await envelope(res)).detail).toMatch(/^body: not valid JSON/);
    expect(await keyCount()).toBe(before);
  });

  it('answers a 20 MB body with 413 and writes nothing', async () => {
    const before = await keyCount();
    const huge = JSON.stringify({ name: 'x'.repeat(20 * 1024 * 1024) });
    const res = await app.request('/v1/api-keys', {
      method: 'POST',
      body: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect((await envelope(res)).code).toBe('payload_too_large');
    expect(await keyCount()).toBe(before);
  });

  it('answers a chunked body over the limit with 413', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(1024 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ >= 12) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await app.request('/v1/api-keys', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('answers unknown top-level fields and wrong types with 400 naming the field', async () => {
    const unknown = await envelope(
      await app.request('/v1/api-keys', { method: 'POST', json: { name: 'a', nmae: 'b' } }),
    );
    expect(unknown).toMatchObject({ code: 'validation_error', detail: 'nmae: unknown field' });
    const wrong = await envelope(await app.request('/v1/api-keys', { method: 'POST', json: { name: 42 } }));
    expect(wrong.detail).toMatch(/^name: /);
    expect(wrong.metadata).toMatchObject({ field: 'name' });
  });

  it('masks unexpected errors and logs them with the request id', async () => {
    const res = await app.request('/v1/_test/boom', { headers: { 'x-request-id': 'trace-123' } });
    expect(res.status).toBe(500);
    const body = await envelope(res);
    expect(body.code).toBe('internal_server_error');
    expect(JSON.stringify(body)).not.toContain('secret');
    expect(body.metadata).toMatchObject({ request_id: 'trace-123' });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    const logged = logs.lines().find((l) => l.error_id === body.id);
    expect(logged).toMatchObject({ req_id: 'trace-123', level: 50 });
    expect(JSON.stringify(logged)).toContain('secret connection string');
  });

  it('serves GET with Content-Type: application/json and no body', async () => {
    const res = await app.request('/v1/api-keys', { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
  });

  it('accepts a JSON body whatever the Content-Type says (curl -d)', async () => {
    const res = await app.request('/v1/api-keys', {
      method: 'POST',
      body: '{"name":"curl"}',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect(await (await fetch(`${app.url}/healthz`)).json()).toMatchObject({ status: 'ok' });
    expect(await (await fetch(`${app.url}/readyz`)).json()).toEqual({ status: 'ready', database: 'server' });
  });
});
