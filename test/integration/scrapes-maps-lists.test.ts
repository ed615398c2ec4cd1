import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

// GET /v1/scrapes and GET /v1/maps: the team's, newest first, paged like the other lists.

let app: TestApp;
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer({
    '/': html('<title>Home</title><h1>Home</h1><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a>'),
    '/a': html('<title>Page A</title><h1>A</h1>'),
    '/b': html('<title>Page B</title><h1>B</h1>'),
    '/c': html('<title>Page C</title><h1>C</h1>'),
  });
  app = await startTestApp({ config: { outbound: allowLocalPorts(site.port) } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const get = async (path: string, key?: string) => {
  const res = await app.request(path, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
};
const post = async (path: string, json: unknown) => {
  const res = await app.request(path, { method: 'POST', json });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
};

describe('GET /v1/scrapes', () => {
  it('lists the team’s scrapes newest first, without content, in pages', async () => {
    expect(await get('/v1/scrapes')).toEqual({ object: 'list', data: [] });
    const a = await post('/v1/scrapes', { url_to_scrape: site.url('/a'), metadata: { n: '1' } });
    const b = await post('/v1/scrapes', { url_to_scrape: site.url('/b'), formats: ['html', 'text'] });
    const c = await post('/v1/scrapes', { url: site.url('/c'), parser: null, formats: ['markdown'] });

    const first = await get('/v1/scrapes?limit=2');
    expect(first.data.map((s: Json) => s.id)).toEqual([c.id, b.id]);
    expect(first.cursor).toBe(2);
    expect(first.data[1]).toEqual({
      id: b.id,
      object: 'scrape',
      created: b.created,
      url: site.url('/b'),
      url_to_scrape: site.url('/b'),
      retrieve_id: b.retrieve_id,
      formats: ['html', 'text'],
      page_metadata: b.result.page_metadata,
      metadata: {},
    });
    expect(first.data[1].page_metadata).toMatchObject({ status_code: 200, title: 'Page B' });
    const rest = await get(`/v1/scrapes?limit=2&cursor=${first.cursor}`);
    expect(rest.data.map((s: Json) => [s.id, s.metadata])).toEqual([[a.id, { n: '1' }]]);
    expect(rest.cursor).toBeUndefined();
    // What an entry names can be read in full.
    expect((await get(`/v1/scrapes/${first.data[0].id}`)).result.markdown_content).toContain('# C');
    expect((await get(`/v1/retrieve?retrieve_id=${rest.data[0].retrieve_id}`)).markdown_content).toContain('# A');

    const other = await app.otherTeam();
    expect(await get('/v1/scrapes', other.key)).toEqual({ object: 'list', data: [] });
  });

  it('refuses limits and cursors out of range', async () => {
    for (const [query, detail] of [
      ['limit=0', /^limit: must be at least 1/],
      ['limit=101', /^limit: must be at most 100/],
      ['cursor=-1', /^cursor: must be an integer/],
    ] as const) {
      const res = await app.request(`/v1/scrapes?${query}`);
      expect((await expectEnvelope(res, 400)).detail).toMatch(detail);
    }
  });
});

describe('GET /v1/maps', () => {
  it('lists the team’s maps newest first, with their size and request, not their URLs', async () => {
    expect(await get('/v1/maps')).toEqual({ object: 'list', data: [] });
    const all = await post('/v1/maps', { url: site.url('/') });
    const searched = await post('/v1/maps', {
      url: site.url('/'),
      search_query: 'page b',
      top_n: 1,
      include_urls: null,
    });
    const page = await get('/v1/maps?limit=1');
    expect(page.cursor).toBe(1);
    expect(page.data).toEqual([
      {
        id: searched.id,
        object: 'map',
        created: searched.created,
        url: searched.url,
        total_urls_count: 1,
        search_query: 'page b',
        top_n: 1,
        include_subdomain: true,
        include_urls: [],
        exclude_urls: [],
      },
    ]);
    const next = await get('/v1/maps?limit=1&cursor=1');
    expect(next.data.map((m: Json) => [m.id, m.total_urls_count])).toEqual([[all.id, all.total_urls_count]]);
    expect(all.total_urls_count).toBeGreaterThanOrEqual(4);
    expect(next.cursor).toBeUndefined();
    const other = await app.otherTeam();
    expect(await get('/v1/maps', other.key)).toEqual({ object: 'list', data: [] });
    const bad = await app.request('/v1/maps?limit=abc');
    expect((await expectEnvelope(bad, 400)).detail).toMatch(/^limit: must be an integer/);
  });
});
