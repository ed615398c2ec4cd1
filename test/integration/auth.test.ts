import { generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { idpAuthConfig, startIdp, type Idp } from '../support/jwks-server.js';

let app: TestApp;
let idp: Idp;

beforeAll(async () => {
  idp = await startIdp();
  app = await startTestApp({
    config: idpAuthConfig(idp),
  });
});
afterAll(async () => {
  await app?.close();
  await idp?.close();
});

async function expectUnauthorized(res: Response, detail: RegExp): Promise<void> {
  expect(res.status).toBe(401);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ object: 'error', code: 'invalid_api_key', status: 401, title: 'Unauthorized' });
  expect(body.type).toBe(`${app.url}/docs/api-reference/errors/unauthorized`);
  expect(body.detail).toMatch(detail);
}

describe('API keys', () => {
  it('authenticates the bootstrap key', async () => {
    const res = await app.request('/v1/me');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ team_id: app.teamId, via: 'api_key' });
  });

  it.each([
    ['missing', null, /missing Authorization header/],
    ['garbled', 'Bearer', /malformed Authorization header/],
    ['another scheme', 'Basic dXNlcjpwYXNz', /unsupported authorization scheme "Basic"/],
    ['unknown key', 'Bearer gln_0000000000000000000000000000000000000000', /invalid API key/],
    ['not a key', 'Bearer hello', /invalid API key/],
    ['two tokens', 'Bearer a b', /malformed/],
  ])('refuses a %s credential', async (_, header, detail) => {
    const res = await app.request('/v1/me', { key: null, headers: header ? { authorization: header } : {} });
    await expectUnauthorized(res, detail);
  });

  it('shows a new key once, lists it by prefix, and refuses it once revoked', async () => {
    const created = await app.request('/v1/api-keys', { method: 'POST', json: { name: 'ci' } });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; key: string; prefix: string };
    expect(key.key).toMatch(/^gln_[A-Za-z0-9]{40}$/);
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const list = (await (await app.request('/v1/api-keys')).json()) as { data: Record<string, unknown>[] };
    const listed = list.data.find((k) => k.id === key.id)!;
    expect(listed).toMatchObject({ name: 'ci', revoked_at: null });
    expect(listed.key).toBeUndefined();
    expect(JSON.stringify(list)).not.toContain(key.key);

    expect((await app.request('/v1/me', { key: key.key })).status).toBe(200);
    const revoked = await app.request(`/v1/api-keys/${key.id}`, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { revoked_at: number }).revoked_at).toBeGreaterThan(0);
    await expectUnauthorized(await app.request('/v1/me', { key: key.key }), /revoked/);
  });

  it('stores only a hash of the key', async () => {
    const rows = await app.container.db.orm.em.getConnection().execute('select * from api_keys');
    const serialized = JSON.stringify(rows);
    expect(serialized).not.toContain(app.key);
    expect(serialized).toContain(app.key.slice(0, 12));
  });

  it("answers 404 for another team's key, and changes nothing", async () => {
    const other = await app.otherTeam();
    const mine = (await (await app.request('/v1/api-keys')).json()) as { data: { id: string }[] };
    const res = await app.request(`/v1/api-keys/${mine.data[0]!.id}`, { method: 'DELETE', key: other.key });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('api_key_not_found');
    expect((await app.request('/v1/me')).status).toBe(200);
  });
});

describe('identity-provider tokens', () => {
  it('accepts a valid token and provisions its team once', async () => {
    const token = await idp.sign({ sub: 'user-1', org: 'acme' });
    const first = (await (await app.request('/v1/me', { key: token })).json()) as Record<string, string>;
    expect(first).toMatchObject({ via: 'jwt', subject: 'user-1' });
    const second = (await (
      await app.request('/v1/me', { key: await idp.sign({ sub: 'user-2', org: 'acme' }) })
    ).json()) as Record<string, string>;
    expect(second.team_id).toBe(first.team_id);
    expect(first.team_id).not.toBe(app.teamId);
  });

  it('refuses an expired token', async () => {
    const token = await idp.sign({ org: 'acme' }, { expiresIn: '-5m' });
    await expectUnauthorized(await app.request('/v1/me', { key: token }), /expired/);
  });

  it('refuses a forged token', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await idp.sign({ org: 'acme' }, { key: privateKey });
    await expectUnauthorized(await app.request('/v1/me', { key: token }), /signature/);
  });

  it('refuses a token for another audience', async () => {
    const token = await idp.sign({ org: 'acme' }, { audience: 'someone-else' });
    await expectUnauthorized(await app.request('/v1/me', { key: token }), /aud/);
  });

  it('refuses a token of another issuer', async () => {
    const token = await idp.sign({ org: 'acme' }, { issuer: 'https://evil.example/' });
    await expectUnauthorized(await app.request('/v1/me', { key: token }), /iss/);
  });

  it('refuses a token without the team claim', async () => {
    await expectUnauthorized(await app.request('/v1/me', { key: await idp.sign({ sub: 'x' }) }), /claim "org"/);
  });

  it('refuses an unsigned (alg none) token', async () => {
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const token = `${b64({ alg: 'none' })}.${b64({ org: 'acme', aud: idp.audience, iss: idp.issuer })}.`;
    await expectUnauthorized(await app.request('/v1/me', { key: token }), /rejected/);
  });
});
