import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../../schema/index.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { collect, wsClient } from '../support/graphql-ws.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const gql = async (query: string, variables: Record<string, unknown> = {}, key: string | null = app.key) => {
  const res = await app.request('/graphql', { method: 'POST', json: { query, variables }, key });
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: Record<string, unknown>;
      errors?: { message: string; extensions: Record<string, unknown> }[];
    },
  };
};

describe('GraphQL over HTTP', () => {
  it('answers queries with the same authentication as REST', async () => {
    const { body } = await gql('{ me { teamId via } apiKeys { id prefix key } }');
    expect(body.data).toMatchObject({ me: { teamId: app.teamId, via: 'api_key' } });
    expect((body.data!.apiKeys as { key: string | null }[])[0]!.key).toBeNull();
  });

  it('carries the error envelope in extensions', async () => {
    const { body } = await gql('{ me { teamId } }', {}, null);
    const error = body.errors![0]!;
    expect(error.extensions.code).toBe('invalid_api_key');
    expect(error.extensions.envelope).toMatchObject({ object: 'error', status: 401, code: 'invalid_api_key' });
  });

  it('validates arguments with the shared schemas', async () => {
    const { body } = await gql('mutation($n: String) { createApiKey(name: $n) { id } }', { n: 'x'.repeat(101) });
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'validation_error' });
    expect(body.errors![0]!.message).toMatch(/^name: /);
  });

  it('shows the secret once from createApiKey and revokes through revokeApiKey', async () => {
    const created = await gql('mutation { createApiKey(name: "gql") { id key } }');
    const { id, key } = created.body.data!.createApiKey as { id: string; key: string };
    expect(key).toMatch(/^gln_/);
    const revoked = await gql('mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id });
    expect((revoked.body.data!.revokeApiKey as { revokedAt: number }).revokedAt).toBeGreaterThan(0);
  });

  it('answers a syntax error as a validation error', async () => {
    const { status, body } = await gql('{ me { teamId }');
    expect(status).toBe(200); // GraphQL-over-HTTP: application/json answers 200 with errors
    expect(body.errors![0]!.extensions.code).toBe('validation_error');
    const strict = await app.request('/graphql', {
      method: 'POST',
      json: { query: '{ me { teamId }' },
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(strict.status).toBe(400);
  });

  it("answers another team's or an unknown id with the resource's not-found code", async () => {
    const { body } = await gql('mutation { revokeApiKey(id: "key_nope") { id } }');
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'api_key_not_found' });
  });

  it('serves GraphiQL to a browser', async () => {
    const res = await fetch(`${app.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('GraphiQL');
  });
});

describe('GraphQL over WebSocket', () => {
  it('streams team events to a subscriber authenticated by connectionParams', async () => {
    const client = wsClient(app.url, app.key);
    const sub = collect<{ teamEvents: { type: string; name: string } }>(
      client,
      'subscription { teamEvents { ... on ApiKeyEvent { type name } } }',
      2,
    );
    await sub.ready;
    const { key } = await app.container.services.apiKeys.createKey(app.teamId, 'watched');
    await app.container.services.apiKeys.revokeKey(app.teamId, key.id);
    expect((await sub.done).map((e) => e.teamEvents)).toEqual([
      { type: 'api_key.created', name: 'watched' },
      { type: 'api_key.revoked', name: 'watched' },
    ]);
    await client.dispose();
  });

  it("does not deliver another team's events", async () => {
    const other = await app.otherTeam();
    const client = wsClient(app.url, other.key);
    const sub = collect<{ teamEvents: { name: string } }>(
      client,
      'subscription { teamEvents { ... on ApiKeyEvent { name } } }',
      1,
      4000,
    );
    await sub.ready;
    await app.container.services.apiKeys.createKey(app.teamId, 'not-yours');
    await app.container.services.apiKeys.createKey(other.teamId, 'yours');
    expect((await sub.done)[0]!.teamEvents.name).toBe('yours');
    await client.dispose();
  });

  it('closes the connection with 4403 for a bad credential', async () => {
    const client = wsClient(app.url, 'gln_bad');
    const closed = new Promise<number>((resolve) =>
      client.on('closed', (event) => resolve((event as { code: number }).code)),
    );
    const sub = collect(client, 'subscription { teamEvents { __typename } }', 1, 4000);
    await expect(sub.done).rejects.toBeDefined();
    expect(await closed).toBe(4403);
    await client.dispose();
  });
});

describe('schema', () => {
  it('matches schema/schema.graphql (run npm run schema:print after changing types)', () => {
    const committed = readFileSync(new URL('../../schema/schema.graphql', import.meta.url), 'utf8');
    expect(`${printSchema(buildSchema())}\n`).toBe(committed);
  });
});
