import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { idpAuthConfig, startIdp, type Idp } from '../support/jwks-server.js';

// Broke: the team an access token names is looked up and stored by its claim; a claim holding a
// NUL character reached Postgres and the request answered 500. Such a token names no team: 401.
let idp: Idp;
let app: TestApp;
beforeAll(async () => {
  idp = await startIdp();
  app = await startTestApp({ config: idpAuthConfig(idp) });
});
afterAll(async () => {
  await app?.close();
  await idp?.close();
});

it('answers 401 naming the claim for a team claim that is not storable text', async () => {
  const res = await app.request('/v1/me', { key: await idp.sign({ sub: 'u', org: 'acme\u0000corp' }) });
  expect(res.status).toBe(401);
  const body = (await res.json()) as { code: string; detail: string };
  expect(body.code).toBe('invalid_api_key');
  expect(body.detail).toContain('claim "org" is not valid text');
  expect((await app.request('/v1/me', { key: await idp.sign({ sub: 'u', org: 'acme' }) })).status).toBe(200);
});
