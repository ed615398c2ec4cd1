import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

// Broke: a page whose title, meta description or link held a NUL character (or an unpaired
// surrogate: `&#xD800;` in HTML) was fetched and converted, then its page_metadata reached a
// jsonb insert and Postgres refused `\u0000`: the scrape answered 500. What a page says is not
// client input, so it is made storable (NUL dropped, lone surrogates replaced), not refused.
let app: TestApp;
let site: FixtureServer;
beforeAll(async () => {
  site = await startFixtureServer({
    '/nul': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<html><head><title>Tea\u0000 shop \ud800 menu</title><meta name="description" content="Hot\u0000 tea">' +
          '</head><body><h1>Menu</h1><a href="/a\u0000b">next</a></body></html>',
      );
    },
  });
  app = await startTestApp({ config: { outbound: allowLocalPorts(site.port) } });
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

it('stores a page whose metadata and links hold NUL characters and lone surrogates', async () => {
  const res = await app.request('/v1/scrapes', {
    method: 'POST',
    json: { url_to_scrape: site.url('/nul'), formats: ['markdown'], links_on_page: {} },
  });
  const body = (await res.json()) as { id: string; result: { page_metadata: Record<string, unknown> } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.result.page_metadata.title).toBe('Tea shop \ufffd menu');
  expect(body.result.page_metadata.description).toBe('Hot tea');
  const again = await app.request(`/v1/scrapes/${body.id}`);
  expect(again.status).toBe(200);
  expect(((await again.json()) as typeof body).result.page_metadata.title).toBe('Tea shop \ufffd menu');
});
