import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { allowLocalPorts } from '../support/config.js';

// Many scrapes at once through one conversion thread: the pool queues them, the thread holds two
// and the API's event loop converts others (CONVERT_SHARING). Each answer and each stored scrape
// must still be its own page's content.
const PAGES = 10;

/** A page with its number in the title, heading, a table and a link, big enough to take a moment. */
function article(n: number): string {
  const rows = Array.from({ length: 200 }, (_, i) => `<tr><td>${n}.${i}</td><td>row ${i} of page ${n}</td></tr>`);
  return `<!doctype html><html><head><title>Article ${n}</title></head><body><main>
<h1>Heading ${n}</h1><p>Body of page ${n} with <a href="/p/${n + 1}">the next one</a>.</p>
<table><tr><th>id</th><th>text</th></tr>${rows.join('')}</table></main></body></html>`;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: TestApp;
let site: FixtureServer;

beforeAll(async () => {
  const routes: Parameters<typeof startFixtureServer>[0] = {};
  for (let n = 0; n < PAGES; n++) routes[`/p/${n}`] = html(article(n));
  site = await startFixtureServer(routes);
  app = await startTestApp({
    config: { outbound: allowLocalPorts(site.port), scrape: { convertThreads: 1, convertSharing: true } },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

describe('concurrent scrapes through one conversion thread', () => {
  it('answers and stores each page with its own content', async () => {
    const answers = await Promise.all(
      Array.from({ length: PAGES }, async (_, n) => {
        const res = await app.request('/v1/scrapes', {
          method: 'POST',
          json: { url: site.url(`/p/${n}`), formats: ['markdown'], links_on_page: {} },
        });
        expect(res.status).toBe(200);
        return (await res.json()) as Json;
      }),
    );
    for (const [n, body] of answers.entries()) {
      expect(body.result.page_metadata.title).toBe(`Article ${n}`);
      expect(body.result.markdown_content).toContain(`# Heading ${n}\n`);
      expect(body.result.markdown_content).toContain(`| ${n}.199 | row 199 of page ${n} |`);
      expect(body.result.links_on_page).toContain(site.url(`/p/${n + 1}`));
      const stored = (await (await app.request(`/v1/scrapes/${body.id}`)).json()) as Json;
      expect(stored.result.markdown_content).toBe(body.result.markdown_content);
    }
  });
});
