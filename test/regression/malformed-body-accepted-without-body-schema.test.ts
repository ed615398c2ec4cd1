import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectEnvelope } from '../support/envelope.js';

// Broke: routes that take no body never read it, so `POST /v1/webhooks/signing-secret` with
// the body `{` answered 200 and rotated the secret. Malformed JSON is 400 everywhere.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

async function signingSecret(): Promise<unknown> {
  const rows = await app.container.db.orm.em
    .getConnection()
    .execute<{ s: unknown }[]>("select settings->'webhookSigningSecret' as s from teams where id = ?", [app.teamId]);
  return rows[0]!.s;
}

const malformed = (method: string, path: string) =>
  app.request(path, { method, body: '{', headers: { 'content-type': 'application/json' } });

it('refuses `{` on POST /v1/webhooks/signing-secret and rotates nothing', async () => {
  const before = await signingSecret();
  const body = await expectEnvelope(await malformed('POST', '/v1/webhooks/signing-secret'), 400);
  expect(body.code).toBe('validation_error');
  expect(body.detail).toMatch(/^body: not valid JSON/);
  expect(await signingSecret()).toEqual(before);
});

it('refuses a malformed body on every route that takes none, present and future', async () => {
  const routes = app.server.http.routes.filter((r) => !r.body && r.method !== 'get');
  expect(routes.map((r) => r.operationId)).toEqual(
    expect.arrayContaining(['rotateWebhookSigningSecret', 'disableWebhookSigning', 'revokeApiKey', 'redeliverWebhook']),
  );
  for (const route of routes) {
    const path = route.path.replace(/\{[^}]+\}/g, 'x_123');
    const body = await expectEnvelope(await malformed(route.method.toUpperCase(), path), 400);
    expect({ route: route.operationId, detail: body.detail?.slice(0, 20) }).toEqual({
      route: route.operationId,
      detail: 'body: not valid JSON',
    });
  }
});

it('refuses a body with fields on a route that takes none, and revokes nothing', async () => {
  const created = await app.request('/v1/api-keys', { method: 'POST', json: { name: 'keep' } });
  const { id } = (await created.json()) as { id: string };
  const res = await app.request(`/v1/api-keys/${id}`, { method: 'DELETE', body: '{"name":' });
  expect(res.status).toBe(400);
  const fields = await expectEnvelope(
    await app.request('/v1/webhooks/signing-secret', { method: 'POST', json: { enabled: false } }),
    400,
  );
  expect(fields.detail).toBe('enabled: unknown field');
  const keys = (await (await app.request('/v1/api-keys')).json()) as { data: { id: string; revoked_at: unknown }[] };
  expect(keys.data.find((k) => k.id === id)?.revoked_at).toBeNull();
});

it('still accepts no body, an empty object and null', async () => {
  expect((await app.request('/v1/webhooks/signing-secret', { method: 'POST' })).status).toBe(200);
  expect((await app.request('/v1/webhooks/signing-secret', { method: 'POST', body: '{}' })).status).toBe(200);
  expect((await app.request('/v1/webhooks/signing-secret', { method: 'DELETE', body: 'null' })).status).toBe(200);
});
