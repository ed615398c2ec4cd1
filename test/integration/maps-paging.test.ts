import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { page, startMapSite, urlsetXml, xml, type MapSite } from '../fixtures/map-site/map-site.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

const IP = '127.0.0.1';
/** 3,000 URLs of ~4 KB: about 12 MB of JSON, so the result needs two responses. */
const COUNT = 3_000;
const LIMIT = 10_000_000;

let app: TestApp;
let site: MapSite;
let expected: string[];

beforeAll(async () => {
  site = await startMapSite();
  const padding = 'a'.repeat(4_000);
  expected = Array.from({ length: COUNT }, (_, i) => site.url(IP, `/long/${i}/${padding}`));
  site.serve(IP, '/sitemap.xml', xml(urlsetXml(expected)));
  site.serve(IP, '/', page('Home'));
  app = await startTestApp({
    config: {
      outbound: { allowPrivate: false, denyDomains: [], allowAddresses: [`${IP}:${site.port}`] },
      map: { timeBudgetMs: 8000, maxPages: 1, maxUrls: 100_000 },
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

/** The raw response, so its size on the wire can be checked. */
async function call(path: string, init: Parameters<TestApp['request']>[1] = {}) {
  const res = await app.request(path, init);
  const raw = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes: raw.length, body: JSON.parse(raw.toString('utf8')) as Body };
}

const start = () => site.url(IP, '/');

describe('a map larger than 10 MB', () => {
  let first: Awaited<ReturnType<typeof call>>;
  let second: Awaited<ReturnType<typeof call>>;

  beforeAll(async () => {
    first = await call('/v1/maps', { method: 'POST', json: { url: start() } });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    second = await call('/v1/maps', { method: 'POST', json: { url: start(), cursor: first.body.cursor } });
    expect(second.status, JSON.stringify(second.body).slice(0, 300)).toBe(200);
  });

  it('comes in responses of at most 10 MB, continued by a string cursor', () => {
    expect(first.bytes).toBeLessThanOrEqual(LIMIT);
    expect(first.bytes).toBeGreaterThan(LIMIT - 100_000);
    expect(typeof first.body.cursor).toBe('string');
    expect(first.body.urls_count).toBe(first.body.urls.length);
    expect(first.body.total_urls_count).toBe(COUNT + 1);
    expect(second.bytes).toBeLessThanOrEqual(LIMIT);
    expect(second.body.cursor).toBeNull();
    expect(second.body.id).toBe(first.body.id);
  });

  it('returns every URL exactly once, in order, across the responses', () => {
    const all = [...first.body.urls, ...second.body.urls] as string[];
    expect(all).toHaveLength(COUNT + 1);
    expect(all.slice(0, COUNT)).toEqual(expected);
    expect(all[COUNT]).toBe(start());
  });

  it('continues from the stored result without discovering again', async () => {
    const sitemapHits = site.hits(IP, '/sitemap.xml');
    const again = await call('/v1/maps', { method: 'POST', json: { url: start(), cursor: first.body.cursor } });
    expect(again.body.urls).toEqual(second.body.urls);
    expect(site.hits(IP, '/sitemap.xml')).toBe(sitemapHits);
  });

  it('serves the same parts through GET /v1/maps/{id} and ?cursor=', async () => {
    const got = await call(`/v1/maps/${first.body.id}`);
    expect(got.body.urls).toEqual(first.body.urls);
    expect(got.body.cursor).toBe(first.body.cursor);
    const next = await call(`/v1/maps/${first.body.id}?cursor=${encodeURIComponent(first.body.cursor as string)}`);
    expect(next.body.urls).toEqual(second.body.urls);
  });

  it('refuses a tampered cursor with 400 naming cursor', async () => {
    const cursor = first.body.cursor as string;
    const [id, index, byte, sig] = cursor.split('.') as [string, string, string, string];
    for (const forged of [
      `${id}.${Number(index) - 1}.${byte}.${sig}`,
      `${id}.${index}.${Number(byte) + 1}.${sig}`,
      `${id}.${index}.${byte}.${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`,
      cursor.slice(0, -2),
    ]) {
      const res = await call('/v1/maps', { method: 'POST', json: { url: start(), cursor: forged } });
      expect(res.status, forged).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.detail).toMatch(/^cursor: /);
    }
  });

  it('refuses a cursor with the url of another site, or of another map on GET', async () => {
    const otherUrl = await call('/v1/maps', {
      method: 'POST',
      json: { url: 'http://127.0.0.1:1/', cursor: first.body.cursor },
    });
    expect(otherUrl.status).toBe(400);
    expect(otherUrl.body.detail).toMatch(/cursor: continues the map of/);
    const small = await call('/v1/maps', { method: 'POST', json: { url: start(), include_urls: ['/'] } });
    const mismatch = await call(`/v1/maps/${small.body.id}?cursor=${encodeURIComponent(first.body.cursor as string)}`);
    expect(mismatch.status).toBe(400);
  });

  it("answers 404 for another team's map and cursor", async () => {
    const other = await app.otherTeam();
    const res = await call('/v1/maps', {
      method: 'POST',
      key: other.key,
      json: { url: start(), cursor: first.body.cursor },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('map_not_found');
    expect((await call(`/v1/maps/${first.body.id}`, { key: other.key })).status).toBe(404);
  });
});

describe('maps over GraphQL', () => {
  const gql = async (query: string, variables: Record<string, unknown>) =>
    (await (await app.request('/graphql', { method: 'POST', json: { query, variables } })).json()) as {
      data?: Body;
      errors?: { message: string; extensions: { code: string } }[];
    };

  it('createMap and map(id, cursor) page through the same result', async () => {
    const created = await gql(
      `mutation($input: CreateMapInput!) { createMap(input: $input) { id url urlsCount totalUrlsCount cursor creditsConsumed costUsd warning } }`,
      { input: { url: start(), includeUrls: ['/long/**'], searchQuery: null } },
    );
    expect(created.errors).toBeUndefined();
    const m = created.data!.createMap;
    expect(m.totalUrlsCount).toBe(COUNT);
    expect(m.urlsCount).toBeLessThan(COUNT);
    expect(m.cursor).toEqual(expect.any(String));
    const next = await gql('query($id: ID!, $cursor: String) { map(id: $id, cursor: $cursor) { urls cursor } }', {
      id: m.id,
      cursor: m.cursor,
    });
    expect(next.errors).toBeUndefined();
    expect(next.data!.map.cursor).toBeNull();
    expect(m.urlsCount + next.data!.map.urls.length).toBe(COUNT);
  });

  it('validates with the REST rules, naming camelCase fields', async () => {
    const res = await gql('mutation($input: CreateMapInput!) { createMap(input: $input) { id } }', {
      input: { url: start(), topN: 3 },
    });
    expect(res.errors?.[0]?.extensions.code).toBe('validation_error');
    expect(res.errors?.[0]?.message).toMatch(/topN: requires search_query/);
    const bad = await gql('query($id: ID!, $cursor: String) { map(id: $id, cursor: $cursor) { id } }', {
      id: 'map_x',
      cursor: 'forged',
    });
    expect(bad.errors?.[0]?.extensions.code).toBe('validation_error');
  });
});
