import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlHarness, type CrawlHarness, type Json } from '../fixtures/crawl-site/crawl-harness.js';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/crawl-site.js';

let site: CrawlSite;
let app: CrawlHarness;
const S = HOSTS.site;

beforeAll(async () => {
  site = await startCrawlSite();
  app = await startCrawlHarness(site.port);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

async function crawl(json: Json): Promise<{ created: Json; done: Json; pages: Json[] }> {
  const res = await app.request('/v1/crawls', { json });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const done = await app.waitForCrawl(res.body.id as string);
  return { created: res.body, done, pages: await app.allPages(res.body.id as string) };
}

const paths = (pages: Json[]) => pages.map((p) => new URL(p.url as string).pathname).sort();

describe('crawls', () => {
  it('finds pages reachable only by links, breadth first, and keeps to the site and robots.txt', async () => {
    const { created, done, pages } = await crawl({ start_url: site.u(S, '/'), max_pages: 50 });
    expect(created).toMatchObject({
      object: 'crawl',
      status: 'in_progress',
      start_url: site.u(S, '/'),
      max_pages: 50,
      max_depth: null,
      include_urls: ['/**'],
      exclude_urls: [],
      include_external: false,
      include_subdomain: false,
      follow_robots_txt: true,
      pages_count: 0,
      current_depth: 0,
      webhook: null,
    });
    expect(created.id).toMatch(/^crawl_/);
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'exhausted', pages_count: pages.length });
    // / → /old ⇒ /docs/a (a redirect: depth 1) → /docs/b → /docs/c. The link path through /docs/
    // is one longer; claims go one depth at a time, so the shorter path always wins.
    expect(done.current_depth).toBe(3);
    expect(paths(pages)).toEqual(
      [
        '/',
        '/about',
        '/blog/',
        '/blog/cooking',
        '/blog/databases',
        '/blog/gardening',
        '/blog/kubernetes-operators',
        '/docs/',
        '/docs/a',
        '/docs/b',
        '/docs/c',
      ].sort(),
    );
    expect(site.hits(S, '/private/secret') + site.hits(S, '/not-for-gleaner')).toBe(0);
    expect(site.hits(S, '/files/archive.zip')).toBe(0);
    expect(site.hits(HOSTS.docs, '/') + site.hits(HOSTS.other, '/x')).toBe(0);
    expect(done.blocked_count).toBe(2);
    // Crawlee kept everything in memory: nothing in ./storage, nothing even in DATA_DIR/crawlee.
    expect(existsSync(path.join(process.cwd(), 'storage'))).toBe(false);
    const crawleeDir = path.join(app.container.config.dataDir, 'crawlee');
    expect(existsSync(crawleeDir) ? readdirSync(crawleeDir, { recursive: true }) : []).toEqual([]);
  });

  it('lists pages in crawl order with a cursor, content in the requested formats, failed and external URLs', async () => {
    const { created, done } = await crawl({
      start_url: site.u(S, '/'),
      max_pages: 50,
      max_depth: 1,
      scrape_options: { formats: ['markdown', 'html'] },
    });
    // /old redirects to /docs/a: that page is reached at depth 1 and recorded once, under its own URL.
    expect(done).toMatchObject({ pages_count: 5, current_depth: 1, scrape_options: { formats: ['markdown', 'html'] } });
    const first = await app.request(`/v1/crawls/${created.id}/pages?limit=3`);
    expect(first.body).toMatchObject({ id: created.id, crawl_id: created.id, object: 'crawl', status: 'completed' });
    expect(first.body).toMatchObject({ pages_count: 5, cursor: 3 });
    expect(first.body.pages).toHaveLength(3);
    expect(first.body.pages[0]).toEqual({
      id: expect.stringMatching(/^page_/),
      retrieve_id: first.body.pages[0].id.slice('page_'.length),
      url: site.u(S, '/'),
      is_external: false,
      depth: 0,
    });
    const rest = await app.request(`/v1/crawls/${created.id}/pages?limit=3&cursor=3`);
    expect(rest.body.pages).toHaveLength(2);
    expect(paths([...first.body.pages, ...rest.body.pages])).toEqual(['/', '/about', '/blog/', '/docs/', '/docs/a']);
    expect(rest.body.cursor).toBeUndefined();
    expect(first.body.metadata.failed_urls).toEqual([site.u(S, '/missing')]);
    expect(new Set(first.body.metadata.external_urls)).toEqual(
      new Set([site.u(HOSTS.docs, '/'), site.u(HOSTS.other, '/x'), site.u(HOSTS.other, '/landing')]),
    );
    const docs = [...first.body.pages, ...rest.body.pages].find((p: Json) => p.url === site.u(S, '/docs/'));
    const content = await app.request(`/v1/retrieve?retrieve_id=${docs.retrieve_id}`);
    expect(content.status).toBe(200);
    expect(content.body.markdown_content).toContain('# Docs');
    expect(content.body.html_content).toContain('<h1>Docs</h1>');
    expect(content.body.text_content ?? null).toBeNull();
  });

  it('serves pages while the crawl runs, the cursor staying valid, and stops at max_pages', async () => {
    const res = await app.request('/v1/crawls', { json: { start_url: site.u(S, '/slow-calendar/0'), max_pages: 8 } });
    const id = res.body.id as string;
    const seen: string[] = [];
    let running = 0;
    for (let cursor = 0; seen.length < 8;) {
      const { body } = await app.request(`/v1/crawls/${id}/pages?limit=2&cursor=${cursor}`);
      if (body.status === 'in_progress' && body.pages.length > 0) running++;
      seen.push(...body.pages.map((p: Json) => p.url as string));
      cursor += body.pages.length;
      if (body.pages.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(running).toBeGreaterThan(0);
    expect(seen).toEqual(Array.from({ length: 8 }, (_, n) => site.u(S, `/slow-calendar/${n}`)));
    const done = await app.waitForCrawl(id);
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'max_pages', pages_count: 8, current_depth: 7 });
    expect(site.hits(S, '/slow-calendar/8')).toBe(0);
  });

  it('narrows the pages listing with search_query, most relevant first', async () => {
    const { created } = await crawl({ start_url: site.u(S, '/blog/'), max_pages: 10 });
    const { body } = await app.request(`/v1/crawls/${created.id}/pages?search_query=kubernetes%20operators`);
    expect(body.pages.map((p: Json) => p.url)).toEqual([site.u(S, '/blog/kubernetes-operators')]);
    expect(body.pages_count).toBe(1);
  });

  it('lists the team’s crawls newest first and hides them from other teams', async () => {
    const list = await app.request('/v1/crawls?limit=2');
    expect(list.body.object).toBe('list');
    expect(list.body.data).toHaveLength(2);
    expect(list.body.data[0].created).toBeGreaterThanOrEqual(list.body.data[1].created);
    expect(list.body.cursor).toBe(2);
    const team = await app.container.services.apiKeys.createTeam('other');
    const { secret } = await app.container.services.apiKeys.createKey(team.id, 'other');
    const asOther = (path: string) =>
      fetch(`${app.server.url}${path}`, { headers: { authorization: `Bearer ${secret}` } });
    expect(((await (await asOther('/v1/crawls')).json()) as Json).data).toEqual([]);
    for (const path of [`/v1/crawls/${list.body.data[0].id}`, `/v1/crawls/${list.body.data[0].id}/pages`]) {
      const res = await asOther(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'crawl_not_found' });
    }
  });
});
