import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { wsClient } from '../support/graphql-ws.js';
import { idpAuthConfig, startIdp, type Idp } from '../support/jwks-server.js';
import { runScript } from '../support/spawn-service.js';

// Broke: an open teamEvents subscription kept streaming the team's events after its key was
// revoked (by the CLI and by DELETE /v1/api-keys/{id}). Revocation now closes every socket and
// event stream opened with the key (WebSocket close code 4403), whether this process, another
// one, or nobody told it; a token's socket closes when the token expires.

interface Watch {
  client: Client;
  /** Names of the api-key events received so far. */
  seen: string[];
  closed: Promise<{ code: number; reason: string }>;
}

/** A teamEvents subscription over a real WebSocket, connected once this resolves. */
async function watchTeam(app: TestApp, credential: string): Promise<Watch> {
  const client = wsClient(app.url, credential);
  const seen: string[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    client.on('closed', (event) => resolve(event as { code: number; reason: string })),
  );
  const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  client.subscribe<{ teamEvents: { type: string; name?: string } }>(
    { query: 'subscription { teamEvents { ... on ApiKeyEvent { type name } } }' },
    {
      next: (v) => seen.push(`${v.data?.teamEvents.type} ${v.data?.teamEvents.name}`),
      error: () => undefined,
      complete: () => undefined,
    },
  );
  await connected;
  return { client, seen, closed };
}

/** Proves the subscription streams: an event made now arrives. */
async function expectStreaming(app: TestApp, watch: Watch, teamId = app.teamId): Promise<void> {
  const name = `probe-${Math.random().toString(36).slice(2)}`;
  await expect
    .poll(
      async () => {
        if (!watch.seen.some((s) => s.endsWith(name))) await app.container.services.apiKeys.createKey(teamId, name);
        return watch.seen.some((s) => s.endsWith(name));
      },
      { timeout: 10_000, interval: 500 },
    )
    .toBe(true);
}

/** Opens a subscription with a new key, revokes the key with `npm run keys -- revoke`, sees the socket close. */
async function watchedRevocationByCli(app: TestApp, name: string): Promise<{ secret: string }> {
  const { key, secret } = await app.container.services.apiKeys.createKey(app.teamId, name);
  const watch = await watchTeam(app, secret);
  await expectStreaming(app, watch);
  const revoked = await runScript('src/cli/keys.ts', ['revoke', key.id], { DATABASE_URL: app.config.database.url! });
  expect(revoked.code, revoked.stderr).toBe(0);
  expect(await watch.closed).toMatchObject({ code: 4403, reason: 'API key revoked' });
  await watch.client.dispose();
  return { secret };
}

describe('with the default pubsub (Postgres LISTEN/NOTIFY)', () => {
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

  it('closes the socket with 4403 when the key is revoked by DELETE /v1/api-keys/{id}', async () => {
    const { key, secret } = await app.container.services.apiKeys.createKey(app.teamId, 'ws');
    const watch = await watchTeam(app, secret);
    await expectStreaming(app, watch);
    expect((await app.request(`/v1/api-keys/${key.id}`, { method: 'DELETE' })).status).toBe(200);
    expect(await watch.closed).toMatchObject({ code: 4403, reason: 'API key revoked' });
    await watch.client.dispose();
    await expect.poll(() => app.container.live.size).toBe(0);
  });

  it('closes the socket when the CLI, another process, revokes the key', { timeout: 60_000 }, async () => {
    const { secret } = await watchedRevocationByCli(app, 'ws-cli');
    expect((await app.request('/v1/me', { key: secret })).status).toBe(401);
  });

  it('ends a subscription streamed as server-sent events when its key is revoked', async () => {
    const { key, secret } = await app.container.services.apiKeys.createKey(app.teamId, 'sse');
    const res = await fetch(`${app.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { teamEvents { ... on ApiKeyEvent { type name } } }' }),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) return true;
        text += value;
      }
      return false;
    };
    await expect
      .poll(async () => {
        await app.container.services.apiKeys.createKey(app.teamId, 'sse-probe');
        return !(await readUntil(/sse-probe/));
      })
      .toBe(true);
    await app.container.services.apiKeys.revokeKey(app.teamId, key.id);
    await readUntil(/invalid_api_key/);
    expect(text).toMatch(/this API key has been revoked/);
    expect(await readUntil(/(?!)/)).toBe(true); // the stream ends
  });

  it("closes a token's socket when the token expires", async () => {
    const token = await idp.sign({ sub: 'user-1', org: 'acme' }, { expiresIn: '3s' });
    const watch = await watchTeam(app, token);
    const teamId = (await app.container.services.auth.authenticate(`Bearer ${token}`)).teamId;
    await expectStreaming(app, watch, teamId);
    expect(await watch.closed).toMatchObject({ code: 4403, reason: 'access token expired' });
    await watch.client.dispose();
  });
});

describe('when no event reaches this process', () => {
  let app: TestApp;
  beforeAll(async () => {
    // An in-process pubsub hears nothing from the CLI: only re-checking the keys can notice.
    app = await startTestApp({ config: { pubsub: 'memory' } });
  });
  afterAll(() => app?.close());

  it('closes the socket within the key-cache period after the CLI revokes the key', { timeout: 60_000 }, async () => {
    const { secret } = await watchedRevocationByCli(app, 'ws-quiet');
    expect((await app.request('/v1/me', { key: secret })).status).toBe(401);
  });
});
