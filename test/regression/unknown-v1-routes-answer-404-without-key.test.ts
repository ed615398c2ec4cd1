import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectEnvelope } from '../support/envelope.js';

// Broke: Hono's not-found handler ran before any route authenticated, so a request without a
// credential learnt which /v1 routes exist (404 for unknown ones, 401 for known ones). The
// spec: every endpoint requires the credential, and a missing or bad one is 401 first.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

it.each([
  ['GET', '/v1/nothing-here'],
  ['GET', '/v1'],
  ['GET', '/v1/'],
  ['POST', '/v1/nothing/here'],
  ['PUT', '/v1/scrapes'],
  ['DELETE', '/v1/batches'],
  ['GET', '/v1/scrapes/x/y/z'],
])('%s %s without a key or with a bad one is 401, with a key 404', async (method, path) => {
  const missing = await expectEnvelope(await app.request(path, { method, key: null }), 401);
  expect(missing.code).toBe('invalid_api_key');
  const bad = await expectEnvelope(await app.request(path, { method, key: 'gln_not_a_real_key' }), 401);
  expect(bad.code).toBe('invalid_api_key');
  const known = await expectEnvelope(await app.request(path, { method }), 404);
  expect(known.code).toBe('route_not_found');
});

it('keeps the OpenAPI document public (the docs page reads it)', async () => {
  const res = await app.request('/v1/openapi.json', { key: null });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { openapi: string }).openapi).toMatch(/^3\./);
});

it('leaves routes outside /v1 as they were', async () => {
  const res = await app.request('/nothing-here', { key: null });
  expect((await expectEnvelope(res, 404)).code).toBe('route_not_found');
});
