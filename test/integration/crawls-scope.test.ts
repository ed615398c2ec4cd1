import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlHarness, type CrawlHarness, type Json } from '../fixtures/crawl-site/crawl-harness.js';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/crawl-site.js';

// What a crawl follows: limits on endless sites, globs, subdomains, external pages, relevance,
// redirects between hosts.

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

async function crawl(json: Json): Promise<{ done: Json; pages: Json[] }> {
  const res = await app.request('/v1/crawls', { json });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const done = await app.waitForCrawl(res.body.id as string);
  return { done, pages: await app.allPages(res.body.id as string) };
}

const urls = (pages: Json[]) => new Set(pages.map((p) => p.url as string));

describe('limits on an endless calendar', () => {
  it('stops at max_pages, fetching no more than that', async () => {
    const before = site.hitsUnder(S, '/calendar/');
    const { done, pages } = await crawl({ start_url: site.u(S, '/calendar/0'), max_pages: 25 });
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'max_pages', pages_count: 25 });
    expect(pages).toHaveLength(25);
    expect(new Set(pages.map((p) => p.id)).size).toBe(25);
    expect(site.hitsUnder(S, '/calendar/') - before).toBe(25);
  });

  it('stops at max_depth: the frontier runs dry', async () => {
    const { done, pages } = await crawl({ start_url: site.u(S, '/calendar/0'), max_pages: 1000, max_depth: 3 });
    // Each month links to the next one twice (/calendar/N and /calendar/N?view=week).
    expect(done).toMatchObject({ stop_reason: 'exhausted', pages_count: 7, current_depth: 3, max_depth: 3 });
    expect(Math.max(...pages.map((p) => p.depth as number))).toBe(3);
  });

  it('stops at the timeout with what it reached', async () => {
    const started = Date.now();
    const { done } = await crawl({ start_url: site.u(S, '/slow-calendar/0'), max_pages: 1000, timeout: 3 });
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'timeout', timeout: 3 });
    // Each month answers after 200 ms and links only to the next: far fewer than max_pages in 3 s.
    expect(done.pages_count).toBeGreaterThanOrEqual(1);
    expect(done.pages_count).toBeLessThan(16);
    expect(done.completed_at - done.created).toBeLessThanOrEqual(5);
    expect(Date.now() - started).toBeLessThan(8000);
  });
});

describe('globs', () => {
  it('follows only included URLs, exclusion winning; the start page is always crawled', async () => {
    const before = site.hits(S, '/docs/b');
    const { pages } = await crawl({
      start_url: site.u(S, '/'),
      max_pages: 50,
      include_urls: ['/docs/**'],
      exclude_urls: ['/docs/b'],
    });
    expect(urls(pages)).toEqual(new Set([site.u(S, '/'), site.u(S, '/docs/'), site.u(S, '/docs/a')]));
    expect(site.hits(S, '/docs/b')).toBe(before);
  });

  it('matches whole-URL patterns against the URL', async () => {
    const { pages } = await crawl({
      start_url: site.u(S, '/'),
      max_pages: 50,
      include_urls: [`http://${S}:*/blog/**`],
    });
    expect(urls(pages)).toEqual(
      new Set(
        ['/', '/blog/', '/blog/cooking', '/blog/gardening', '/blog/kubernetes-operators', '/blog/databases'].map((p) =>
          site.u(S, p),
        ),
      ),
    );
  });
});

describe('site scope', () => {
  it('follows subdomains with include_subdomain, and never other sites', async () => {
    const { pages } = await crawl({ start_url: site.u(S, '/'), max_pages: 50, max_depth: 2, include_subdomain: true });
    expect(urls(pages)).toContain(site.u(HOSTS.docs, '/'));
    expect(urls(pages)).toContain(site.u(HOSTS.docs, '/guide'));
    expect([...urls(pages)].some((u) => u.includes(HOSTS.other))).toBe(false);
  });

  it('crawls first-degree external pages with include_external, without following their links', async () => {
    const yBefore = site.hits(HOSTS.other, '/y');
    const { pages } = await crawl({ start_url: site.u(S, '/'), max_pages: 50, max_depth: 1, include_external: true });
    const external = pages.filter((p) => p.is_external).map((p) => p.url);
    expect(new Set(external)).toEqual(
      new Set([site.u(HOSTS.docs, '/'), site.u(HOSTS.other, '/x'), site.u(HOSTS.other, '/landing')]),
    );
    expect(pages.filter((p) => !p.is_external).every((p) => (p.url as string).includes(`//${S}:`))).toBe(true);
    expect(site.hits(HOSTS.other, '/y')).toBe(yBefore);
  });

  it('follows a start page that redirected to another host, keeping to that host', async () => {
    const { done, pages } = await crawl({ start_url: site.u(HOSTS.moved, '/'), max_pages: 50, max_depth: 1 });
    expect(done.start_url).toBe(site.u(HOSTS.moved, '/'));
    expect(pages[0]).toMatchObject({ url: site.u(S, '/'), depth: 0, is_external: false });
    expect(urls(pages)).toContain(site.u(S, '/docs/'));
    expect([...urls(pages)].every((u) => u.includes(`//${S}:`))).toBe(true);
  });
});

describe('relevance', () => {
  it('follows only the top_n most relevant links of each page for search_query', async () => {
    const { pages, done } = await crawl({
      start_url: site.u(S, '/blog/'),
      max_pages: 50,
      search_query: 'kubernetes operators',
      top_n: 1,
    });
    expect(done).toMatchObject({ search_query: 'kubernetes operators', top_n: 1 });
    expect(urls(pages)).toEqual(new Set([site.u(S, '/blog/'), site.u(S, '/blog/kubernetes-operators')]));
  });
});
