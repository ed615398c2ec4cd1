import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

// Broke: the official SDKs send `null` for every optional field they do not set, nested
// objects included; `"exclude_links": null` was "expected array, received null" (400).
// The bodies below are written the way an SDK serialises its request models.
let app: TestApp;
let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer({
    '/': html('<title>Home</title><h1>Home</h1><a href="/a">A</a><a href="/b">B</a>'),
    '/a': html('<title>A</title><p>a</p>'),
    '/b': html('<title>B</title><p>b</p>'),
  });
  app = await startTestApp({ config: { outbound: allowLocalPorts(site.port) } });
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

/** Every scrape option an SDK model has, unset. */
const unsetScrapeOptions = {
  formats: null,
  wait_before_scraping: null,
  country: null,
  remove_css_selectors: null,
  remove_images: null,
  remove_class_names: null,
  actions: null,
  parser: null,
  llm_extract: null,
  links_on_page: null,
  screenshot: null,
  screen_size: null,
  transformer: null,
  engine: null,
};
const unsetLinksOnPage = {
  absolute_links: null,
  query_to_order_links_by: null,
  include_links: null,
  exclude_links: null,
};
const unsetScreenSize = { screen_type: null, screen_width: null, screen_height: null };

const send = (method: string, path: string, json: unknown) => app.request(path, { method, json });

describe('REST accepts null for every optional field', () => {
  it('POST /v1/scrapes with links_on_page set and everything else null', async () => {
    const res = await send('POST', '/v1/scrapes', {
      url_to_scrape: site.url('/'),
      url: null,
      ...unsetScrapeOptions,
      links_on_page: unsetLinksOnPage,
      screen_size: unsetScreenSize,
      metadata: null,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { links_on_page: string[] }; metadata: unknown };
    expect(body.result.links_on_page).toEqual(expect.arrayContaining([site.url('/a'), site.url('/b')]));
    expect(body.metadata).toEqual({});
  });

  it('POST /v1/batches, items and all', async () => {
    const res = await send('POST', '/v1/batches', {
      items: [{ custom_id: 'one', url: site.url('/a'), metadata: null }],
      ...unsetScrapeOptions,
      links_on_page: unsetLinksOnPage,
      metadata: null,
      webhook: null,
      webhook_url: null,
      completion_window: null,
    });
    expect(res.status).toBe(200);
    const batch = (await res.json()) as { id: string };
    const items = await app.request(`/v1/batches/${batch.id}/items`, {
      headers: { 'content-type': 'application/json' },
    });
    expect(items.status).toBe(200);
    const patched = await send('PATCH', `/v1/batches/${batch.id}`, { metadata: { run: '2' } });
    expect(((await patched.json()) as { metadata: unknown }).metadata).toEqual({ run: '2' });
  });

  it('POST /v1/crawls, POST /v1/crawls/preview and POST /v1/maps', async () => {
    const crawl = await send('POST', '/v1/crawls', {
      start_url: site.url('/'),
      max_pages: 1,
      max_depth: null,
      include_urls: null,
      exclude_urls: null,
      include_external: null,
      include_subdomain: null,
      search_query: null,
      top_n: null,
      follow_robots_txt: null,
      timeout: null,
      scrape_options: { ...unsetScrapeOptions, links_on_page: unsetLinksOnPage },
      webhook: null,
      webhook_url: null,
    });
    expect(crawl.status).toBe(200);
    const preview = await send('POST', '/v1/crawls/preview', {
      include_urls: null,
      exclude_urls: null,
      urls: [site.url('/a')],
    });
    expect(preview.status).toBe(200);
    const map = await send('POST', '/v1/maps', {
      url: site.url('/'),
      search_query: null,
      top_n: null,
      include_subdomain: null,
      include_urls: null,
      exclude_urls: null,
      cursor: null,
    });
    expect(map.status).toBe(200);
    expect(((await map.json()) as { urls: string[] }).urls).toContain(site.url('/a'));
  });

  it('POST /v1/api-keys and the webhook routes', async () => {
    const key = await send('POST', '/v1/api-keys', { name: null });
    expect(key.status).toBe(201);
    expect(((await key.json()) as { name: string }).name).toBe('unnamed');
    expect((await send('POST', '/v1/webhooks/signing-secret', null)).status).toBe(200);
    expect((await send('POST', '/v1/webhooks/signing-secret', {})).status).toBe(200);
    expect((await send('DELETE', '/v1/webhooks/signing-secret', {})).status).toBe(200);
  });

  it('answers GETs that carry Content-Type: application/json and no body', async () => {
    for (const path of ['/v1/batches', '/v1/crawls', '/v1/api-keys', '/v1/me', '/v1/webhooks/deliveries']) {
      const res = await app.request(path, { headers: { 'content-type': 'application/json' } });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
  });

  it('still answers a required field given null with 400 naming it', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/v1/batches', { items: null, metadata: null }, 'items'],
      ['POST', '/v1/batches', { items: [{ custom_id: null, url: site.url('/') }] }, 'items[0].custom_id'],
      ['POST', '/v1/crawls', { start_url: null, max_pages: 1 }, 'start_url'],
      ['POST', '/v1/crawls', { start_url: site.url('/'), max_pages: null }, 'max_pages'],
      ['POST', '/v1/maps', { url: null, cursor: null }, 'url'],
      ['POST', '/v1/crawls/preview', { urls: null }, 'urls'],
      ['POST', '/v1/scrapes', { url_to_scrape: site.url('/'), parser: { id: null } }, 'parser.id'],
      ['POST', '/v1/scrapes', { url_to_scrape: site.url('/'), metadata: { k: null } }, 'metadata.k'],
    ];
    for (const [method, path, json, field] of cases) {
      const body = await expectEnvelope(await send(method, path, json), 400);
      expect({ path, field: body.metadata.field }).toEqual({ path, field });
      expect(body.detail!.startsWith(`${field}: `)).toBe(true);
    }
    const created = await send('POST', '/v1/batches', { items: [{ custom_id: 'x', url: site.url('/') }] });
    const { id } = (await created.json()) as { id: string };
    const patch = await expectEnvelope(await send('PATCH', `/v1/batches/${id}`, { metadata: null }), 400);
    expect(patch.metadata.field).toBe('metadata');
  });
});

describe('GraphQL treats null as absent the same way', () => {
  it('lists with null paging arguments', async () => {
    const result = await graphql(
      app.url,
      app.key,
      'query($c: Int, $l: Int) { batches(cursor: $c, limit: $l) { id } crawls(cursor: $c, limit: $l) { id } }',
      { c: null, l: null },
    );
    expect(result.errors).toBeUndefined();
  });

  it('creates with every optional input field null, nested JSON included', async () => {
    const result = await graphql(
      app.url,
      app.key,
      `
        mutation ($b: CreateBatchInput!, $s: CreateScrapeInput!) {
          createBatch(input: $b) {
            id
          }
          createScrape(input: $s) {
            id
            result {
              linksOnPage
            }
          }
        }
      `,
      {
        b: {
          items: [{ customId: 'a', url: site.url('/a'), metadata: null }],
          formats: null,
          country: null,
          parser: null,
          linksOnPage: { absoluteLinks: null, excludeLinks: null },
          transformer: null,
          metadata: null,
          webhook: null,
        },
        s: {
          urlToScrape: site.url('/'),
          url: null,
          formats: null,
          linksOnPage: { absoluteLinks: null, queryToOrderLinksBy: null, includeLinks: null, excludeLinks: null },
          screenSize: null,
          metadata: null,
        },
      },
    );
    expect(result.errors).toBeUndefined();
    const scrape = result.data!.createScrape as { result: { linksOnPage: string[] } };
    expect(scrape.result.linksOnPage).toContain(site.url('/a'));
  });
});
