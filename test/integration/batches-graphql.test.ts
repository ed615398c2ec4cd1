import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { collect, wsClient } from '../support/graphql-ws.js';

let app: TestApp;
let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer({
    '/p/*': (req, res) => {
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<h1>${req.url}</h1>`), 30);
    },
  });
  app = await startTestApp({
    workers: true,
    config: {
      outbound: { allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${site.port}`] },
      workers: { threads: 1, concurrency: 4, hostConcurrency: 4, leaseMs: 5000, maxAttempts: 3, retryBaseMs: 100 },
    },
  });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await site?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const gql = async (query: string, variables: Json = {}) =>
  (await (await app.request('/graphql', { method: 'POST', json: { query, variables } })).json()) as {
    data?: Json;
    errors?: Json[];
  };

describe('batches over GraphQL', () => {
  it('creates a batch, streams its progress to completion, and pages its items', async () => {
    const created = await gql(
      'mutation($input: CreateBatchInput!) { createBatch(input: $input) { id status totalUrls parser metadata } }',
      {
        input: {
          items: Array.from({ length: 20 }, (_, i) => ({ customId: `g${i}`, url: site.url(`/p/${i}`) })),
          formats: ['markdown'],
          metadata: { via: 'graphql' },
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const batch = created.data!.createBatch;
    expect(batch).toMatchObject({ status: 'in_progress', totalUrls: 20, parser: 'none', metadata: { via: 'graphql' } });

    const client = wsClient(app.url, app.key);
    const events: Json[] = [];
    await new Promise<void>((resolve, reject) => {
      client.subscribe(
        {
          query: 'subscription($id: ID!) { batchProgress(id: $id) { status completed failed total } }',
          variables: { id: batch.id },
        },
        { next: (v) => void events.push((v.data as Json).batchProgress), error: reject, complete: resolve },
      );
    });
    await client.dispose();
    expect(events[0]!.total).toBe(20);
    expect(events.at(-1)).toMatchObject({ status: 'completed', completed: 20, failed: 0 });
    const counts = events.map((e) => e.completed + e.failed);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));

    const read = await gql(
      'query($id: ID!) { batch(id: $id) { status completedUrls items(limit: 5, cursor: 5) { items { customId retrieveId status } itemsCount cursor } } }',
      { id: batch.id },
    );
    expect(read.data!.batch).toMatchObject({
      status: 'completed',
      completedUrls: 20,
      items: { itemsCount: 20, cursor: 10 },
    });
    expect(read.data!.batch.items.items.map((i: Json) => i.customId)).toEqual(['g5', 'g6', 'g7', 'g8', 'g9']);
    const content = await gql('query($r: ID!) { retrieve(retrieveId: $r) { markdownContent } }', {
      r: read.data!.batch.items.items[0].retrieveId,
    });
    expect(content.data!.retrieve.markdownContent).toContain('# /p/5');
  });

  it('sends the final state at once for a finished batch, and refuses another team’s batch', async () => {
    const done = await gql(
      'mutation { createBatch(input: { items: [{ customId: "x", url: "http://no-such-host.invalid/" }] }) { id } }',
    );
    const id = done.data!.createBatch.id;
    await expect
      .poll(async () => (await gql('query($id: ID!) { batch(id: $id) { status } }', { id })).data!.batch.status, {
        timeout: 30_000,
      })
      .toBe('completed');
    const client = wsClient(app.url, app.key);
    const sub = collect<Json>(client, `subscription { batchProgress(id: "${id}") { status failed } }`, 1);
    expect((await sub.done)[0]!.batchProgress).toEqual({ status: 'completed', failed: 1 });
    await client.dispose();
    const other = await app.otherTeam();
    const theirs = wsClient(app.url, other.key);
    const refused = collect<Json>(theirs, `subscription { batchProgress(id: "${id}") { status } }`, 1, 5000);
    await expect(refused.done).rejects.toThrow(/batch_not_found/);
    await theirs.dispose();
  });

  it('validates createBatch input with the REST rules, in camelCase', async () => {
    const res = await gql(
      'mutation { createBatch(input: { items: [{ customId: "a", url: "https://a.example" }, { customId: "a", url: "https://b.example" }] }) { id } }',
    );
    expect(res.errors![0]!.extensions.code).toBe('validation_error');
    expect(res.errors![0]!.message).toMatch(/^input\.items\[1\]\.customId: duplicate/);
  });
});
