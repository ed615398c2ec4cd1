import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlHarness, type CrawlHarness, type Json } from '../fixtures/crawl-site/crawl-harness.js';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/crawl-site.js';

// The same crawl on the embedded database (PGlite), which `npm start` uses without DATABASE_URL.

let site: CrawlSite;
let app: CrawlHarness;
const S = HOSTS.site;

beforeAll(async () => {
  site = await startCrawlSite();
  app = await startCrawlHarness(site.port, {}, 'pglite');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

describe('crawls on the embedded database', () => {
  it('crawls, records pages in order and completes once', async () => {
    // /docs/b is 3 links away through /docs/ but 2 through the /old redirect to /docs/a: depth is
    // the shortest path, whichever fetch finishes first.
    const res = await app.request('/v1/crawls', { json: { start_url: site.u(S, '/'), max_pages: 50, max_depth: 2 } });
    expect(res.status).toBe(200);
    const done = await app.waitForCrawl(res.body.id as string);
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'exhausted', current_depth: 2, blocked_count: 2 });
    const pages = await app.allPages(res.body.id as string);
    expect(pages).toHaveLength(done.pages_count as number);
    expect(new Set(pages.map((p: Json) => p.url)).size).toBe(pages.length);
    expect(pages.map((p: Json) => p.url)).toContain(site.u(S, '/docs/b'));
  });

  it("indexes the crawled pages' text for the stored search, assembled from pieces", async () => {
    // /docs/a says "Configure" only in its text (a link), not in its title: found by its text's
    // vector, which the embedded database assembles from pieces by default (search-vector.ts).
    const res = await app.request('/v1/searches', {
      method: 'POST',
      json: { query: 'configuring', provider: 'stored' },
    });
    expect(res.status).toBe(200);
    const urls = (res.body.results as Json[]).map((r) => r.url);
    expect(urls).toEqual(expect.arrayContaining([site.u(S, '/docs/a'), site.u(S, '/docs/b')]));
  });
});
