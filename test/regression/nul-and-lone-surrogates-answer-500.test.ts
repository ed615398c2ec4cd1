import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { allowLocalPorts } from '../support/config.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { collect, wsClient } from '../support/graphql-ws.js';

// Broke: Postgres refuses U+0000 in text and `\u0000` or an unpaired surrogate escape in jsonb.
// An id with a NUL reached the database as a query parameter and a string field with one
// reached an insert: both answered 500 internal_server_error.
let app: TestApp;
let site: FixtureServer;
let batchId: string;
beforeAll(async () => {
  site = await startFixtureServer({ '/*': html('<h1>Hi</h1><a href="/a">a</a>') });
  app = await startTestApp({ config: { outbound: allowLocalPorts(site.port) } });
  const res = await app.request('/v1/batches', {
    method: 'POST',
    json: { items: [{ custom_id: 'a', url: 'https://example.com/' }] },
  });
  batchId = ((await res.json()) as { id: string }).id;
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

async function storedCounts() {
  const [row] = await app.container.db.orm.em
    .getConnection()
    .execute<{ n: number }[]>(
      'select (select count(*) from batches) + (select count(*) from scrapes) + (select count(*) from api_keys) as n',
    );
  return Number(row!.n);
}

describe('REST: an id that cannot exist answers 404 of its resource', () => {
  it.each([
    ['GET', '/v1/scrapes/%00', 'scrape_not_found'],
    ['GET', '/v1/scrapes/a%00b', 'scrape_not_found'],
    ['GET', '/v1/batches/%00', 'batch_not_found'],
    ['GET', '/v1/batches/a%00b/items', 'batch_not_found'],
    ['PATCH', '/v1/batches/%00', 'batch_not_found'],
    ['GET', '/v1/crawls/%00', 'crawl_not_found'],
    ['GET', '/v1/crawls/%00/pages', 'crawl_not_found'],
    ['GET', '/v1/maps/%00', 'map_not_found'],
    ['GET', '/v1/retrieve?retrieve_id=%00', 'page_not_found'],
    ['GET', '/v1/retrieve?retrieve_id=a%00b', 'page_not_found'],
    ['DELETE', '/v1/api-keys/%00', 'api_key_not_found'],
    ['POST', '/v1/webhooks/deliveries/%00/redeliver', 'delivery_not_found'],
    ['GET', `/v1/scrapes/${'x'.repeat(300)}`, 'scrape_not_found'],
  ])('%s %s → %s', async (method, path, code) => {
    const json = method === 'PATCH' ? { metadata: { a: 'b' } } : undefined;
    const body = await expectEnvelope(await app.request(path, { method, json }), 404);
    expect(body.code).toBe(code);
    expect(body.detail).not.toContain('\u0000');
  });

  it('holds for every route with a path parameter, present and future', async () => {
    const routes = app.server.http.routes.filter((r) => r.path.includes('{'));
    expect(routes.length).toBeGreaterThanOrEqual(8);
    for (const route of routes) {
      const path = route.path.replace(/\{[^}]+\}/g, 'x%00y');
      const json = route.body ? {} : undefined;
      const res = await app.request(path, { method: route.method.toUpperCase(), json });
      const body = await expectEnvelope(res);
      expect({ route: route.operationId, status: res.status }).toEqual({ route: route.operationId, status: 404 });
      expect(body.code).toMatch(/^[a-z_]+_not_found$/);
      expect(body.code).not.toBe('route_not_found');
    }
  });
});

describe('REST: a string with NUL or an unpaired surrogate answers 400 naming the field', () => {
  const item = { custom_id: 'a', url: 'https://example.com/' };
  const page = () => site.url('/');
  it.each([
    ['/v1/batches', 'POST', { items: [{ ...item, custom_id: 'a\u0000' }] }, 'items[0].custom_id'],
    ['/v1/batches', 'POST', { items: [item], metadata: { 'k\u0000': 'v' } }, 'metadata'],
    ['/v1/batches', 'POST', { items: [item], metadata: { k: 'v\ud800' } }, 'metadata.k'],
    ['/v1/batches', 'POST', { items: [{ ...item, metadata: { k: '\udc00x' } }] }, 'items[0].metadata.k'],
    ['/v1/batches', 'POST', { items: [item], remove_class_names: ['x\u0000'] }, 'remove_class_names[0]'],
    ['/v1/batches', 'POST', { items: [item], links_on_page: { extra: ['\u0000'] } }, 'links_on_page.extra[0]'],
    [
      '/v1/batches',
      'POST',
      { items: [item], actions: [{ type: 'click', selector: 'a\u0000' }] },
      'actions[0].selector',
    ],
    ['/v1/scrapes', 'POST', { url: 'PAGE', metadata: { k: 'a\u0000' } }, 'metadata.k'],
    ['/v1/scrapes', 'POST', { url: 'PAGE', metadata: { ['\ud83d']: 'v' } }, 'metadata'],
    ['/v1/api-keys', 'POST', { name: 'key\ud800' }, 'name'],
    ['/v1/api-keys', 'POST', { name: 'key\u0000' }, 'name'],
    ['/v1/crawls', 'POST', { start_url: 'PAGE', max_pages: 1, search_query: '\u0000' }, 'search_query'],
  ])('%s %s %j → 400 naming %s', async (path, method, json, field) => {
    const before = await storedCounts();
    const withPage = JSON.parse(JSON.stringify(json).replace('"PAGE"', JSON.stringify(page()))) as unknown;
    const body = await expectEnvelope(await app.request(path, { method, json: withPage }), 400);
    expect(body.code).toBe('validation_error');
    expect(body.metadata.field).toBe(field);
    expect(body.detail).toMatch(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: `));
    expect(await storedCounts()).toBe(before);
  });

  it('refuses them in PATCH metadata, query filters and a search over crawl pages', async () => {
    const patch = await expectEnvelope(
      await app.request(`/v1/batches/${batchId}`, { method: 'PATCH', json: { metadata: { k: 'v\u0000' } } }),
      400,
    );
    expect(patch.metadata.field).toBe('metadata.k');
    const deliveries = await expectEnvelope(await app.request('/v1/webhooks/deliveries?event_id=%00'), 400);
    expect(deliveries.metadata.field).toBe('event_id');
  });
});

describe('GraphQL: the same rule', () => {
  const code = (result: Awaited<ReturnType<typeof graphql>>) => result.errors?.[0]?.extensions.code;

  it.each([
    ['query($id: ID!) { scrape(id: $id) { id } }', 'scrape_not_found'],
    ['query($id: ID!) { batch(id: $id) { id } }', 'batch_not_found'],
    ['query($id: ID!) { crawl(id: $id) { id } }', 'crawl_not_found'],
    ['query($id: ID!) { map(id: $id) { id } }', 'map_not_found'],
    ['query($id: ID!) { retrieve(retrieveId: $id) { url } }', 'page_not_found'],
    ['mutation($id: ID!) { revokeApiKey(id: $id) { id } }', 'api_key_not_found'],
    ['mutation($id: ID!) { updateBatchMetadata(id: $id, metadata: {a: "b"}) { id } }', 'batch_not_found'],
  ])('%s with a NUL id → %s', async (query, expected) => {
    const result = await graphql(app.url, app.key, query, { id: 'a\u0000b' });
    expect(code(result)).toBe(expected);
  });

  it('answers a subscription to an impossible id with its not-found code', async () => {
    const client = wsClient(app.url, app.key);
    try {
      const { done } = collect(client, 'subscription { batchProgress(id: "a\\u0000") { status } }', 1);
      await expect(done).rejects.toThrow(/batch_not_found/);
    } finally {
      await client.dispose();
    }
  });

  it.each([
    [
      'mutation($in: CreateBatchInput!) { createBatch(input: $in) { id } }',
      { in: { items: [{ customId: 'a\u0000', url: 'https://example.com/' }] } },
      'input.items[0].customId',
    ],
    [
      'mutation($in: CreateBatchInput!) { createBatch(input: $in) { id } }',
      { in: { items: [{ customId: 'a', url: 'https://example.com/' }], metadata: { k: 'v\ud800' } } },
      'input.metadata.k',
    ],
    [
      'mutation($in: CreateScrapeInput!) { createScrape(input: $in) { id } }',
      { in: { url: 'PAGE', removeClassNames: ['\u0000'] } },
      'input.removeClassNames[0]',
    ],
    ['mutation($n: String) { createApiKey(name: $n) { id } }', { n: 'k\ud800' }, 'name'],
    ['mutation($id: ID!) { updateBatchMetadata(id: $id, metadata: {k: "\\u0000"}) { id } }', 'batch', 'metadata.k'],
  ])('%s → 400 naming %s', async (query, variables, field) => {
    const before = await storedCounts();
    const vars =
      variables === 'batch'
        ? { id: batchId }
        : (JSON.parse(JSON.stringify(variables).replace('"PAGE"', JSON.stringify(site.url('/')))) as Record<
            string,
            unknown
          >);
    const result = await graphql(app.url, app.key, query, vars);
    expect(code(result)).toBe('validation_error');
    expect(result.errors![0]!.message.startsWith(`${field}: `)).toBe(true);
    expect(await storedCounts()).toBe(before);
  });
});
