import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { wsClient } from '../support/graphql-ws.js';

// Broke: GraphQL had no limits. 1,000 aliases of batches(limit:100){items(limit:100){…}} ran
// 55 s and starved REST of database connections; 5,000 aliased __schema queries ran without a
// key; a 100,000-deep list argument or a 5,000-deep JSON literal overflowed the parser's stack (500).
// Each is now refused with a 400 envelope before anything executes.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());
afterEach(() => vi.restoreAllMocks());

interface GqlBody {
  data?: unknown;
  errors?: { message: string; extensions: { code: string; envelope: { status: number; detail: string } } }[];
}

async function post(query: string, options: { key?: string | null; variables?: unknown; accept?: string } = {}) {
  const res = await app.request('/graphql', {
    method: 'POST',
    json: { query, variables: options.variables ?? {} },
    key: options.key,
    headers: { accept: options.accept ?? 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as GqlBody };
}

function expectRefused(answer: { status: number; body: GqlBody }, detail: RegExp, status = 400): void {
  expect(answer.status).toBe(status);
  expect(answer.body.data).toBeUndefined();
  const error = answer.body.errors![0]!;
  expect(error.extensions.envelope).toMatchObject({ object: 'error', status });
  expect(error.extensions.envelope.detail).toMatch(detail);
}

const aliases = (n: number, selection: string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection}`).join(' ')} }`;
const itemsOfBatches = 'batches(limit: 100) { id items(limit: 100) { items { url status customId } } }';

describe('refusals before execution, while REST answers', () => {
  it('refuses the amplifying queries of the report with 400 and runs none of their resolvers', async () => {
    const services = app.container.services;
    const list = vi.spyOn(services.batches, 'list');
    const items = vi.spyOn(services.batches, 'items');
    const refusals = Promise.all([
      post(aliases(1000, itemsOfBatches)),
      post(aliases(5000, '__schema { types { name } }'), { key: null }),
      post(`{ batches(limit: ${'['.repeat(100_000)}1${']'.repeat(100_000)}) { id } }`),
      post(`mutation { updateBatchMetadata(id: "x", metadata: ${'{a:'.repeat(5000)}1${'}'.repeat(5000)}) { id } }`),
      post(`{ ${itemsOfBatches} }`),
    ]);
    const rest = Promise.all([app.request('/v1/crawls'), app.request('/v1/me')]); // no batches.list: that is spied
    const [tooManyTokens, keylessIntrospection, deepList, deepJson, tooCostly] = await refusals;
    expectRefused(tooManyTokens, /more than 10000 tokens/);
    expectRefused(keylessIntrospection, /more than 10000 tokens/);
    expectRefused(deepList, /nest more than 64 deep/);
    expectRefused(deepJson, /nest more than 64 deep/);
    expectRefused(tooCostly, /cost is \d+, over the limit of 10000/);
    expect(list).not.toHaveBeenCalled();
    expect(items).not.toHaveBeenCalled();
    expect((await rest).map((r) => r.status)).toEqual([200, 200]);
  });

  it('refuses documents before they are parsed into anything or authenticated', async () => {
    const authenticate = vi.spyOn(app.container.services.auth, 'authenticate');
    expectRefused(await post(aliases(31, 'me { teamId }')), /aliases limit of 30/);
    expectRefused(await post(`{ ${'__typename @include(if: true) '.repeat(51)} }`), /directives limit of 50/);
    const deep = `__type(name: "Query") { fields { type ${'{ ofType '.repeat(10)}{ name }${' }'.repeat(10)} } }`;
    expectRefused(await post(`{ ${deep} }`), /depth limit of 10/);
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('answers 400 whatever the Accept header, and the same request within the limits normally', async () => {
    const strict = await post(aliases(31, 'me { teamId }'), { accept: 'application/graphql-response+json' });
    expectRefused(strict, /aliases limit/);
    const fine = await post(aliases(30, 'me { teamId }'));
    expect(fine.status).toBe(200);
    expect(fine.body.errors).toBeUndefined();
    const paged = await post('{ batches(limit: 20) { id items(limit: 20) { items { url } } } }');
    expect(paged.body.errors).toBeUndefined();
  });

  it('counts paging arguments given as variables', async () => {
    const list = vi.spyOn(app.container.services.batches, 'list');
    const query = 'query($n: Int) { batches(limit: $n) { id items(limit: $n) { items { url status customId } } } }';
    expectRefused(await post(query, { variables: { n: 100 } }), /over the limit of 10000/);
    expect(list).not.toHaveBeenCalled();
    expect((await post(query, { variables: { n: 10 } })).body.errors).toBeUndefined();
  });

  it('refuses variables nested deeper than the limit', async () => {
    // Built as text: JSON.stringify itself overflows on 5,000 levels.
    const metadata = `${'{"a":'.repeat(5000)}"x"${'}'.repeat(5000)}`;
    const query = JSON.stringify('mutation($m: JSON!) { updateBatchMetadata(id: "x", metadata: $m) { id } }');
    const res = await app.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: `{"query":${query},"variables":{"m":${metadata}}}`,
    });
    expectRefused(
      { status: res.status, body: (await res.json()) as GqlBody },
      /^\$m\.a\.a\.a…: arrays and objects nested more than 64 deep/,
    );
  });
});

describe('introspection', () => {
  it('needs a key (401 envelope) and works with one', async () => {
    const query = '{ __schema { queryType { name } } }';
    expectRefused(await post(query, { key: null }), /missing Authorization header/, 401);
    expectRefused(await post(query, { key: 'gln_notakey' }), /invalid API key/, 401);
    const withKey = await post(query);
    expect(withKey.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
    expect((await post('{ __typename }', { key: null })).body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('over WebSocket', () => {
  it('answers a refused operation with its envelope and keeps the connection', async () => {
    const client = wsClient(app.url, app.key);
    const run = (query: string) =>
      new Promise<unknown[]>((resolve) => {
        client.subscribe(
          { query },
          { next: () => undefined, error: (e) => resolve(e as unknown[]), complete: () => resolve([]) },
        );
      });
    const tooDeep = (await run(`{ batches(limit: ${'['.repeat(5000)}1${']'.repeat(5000)}) { id } }`)) as {
      extensions: { envelope: { status: number; detail: string } };
    }[];
    expect(tooDeep[0]!.extensions.envelope).toMatchObject({ status: 400, detail: expect.stringMatching(/nest more/) });
    const tooMany = (await run(aliases(31, 'me { teamId }'))) as { extensions: { code: string } }[];
    expect(tooMany[0]!.extensions.code).toBe('validation_error');
    expect(await run('{ me { teamId } }')).toEqual([]);
    await client.dispose();
  });
});
