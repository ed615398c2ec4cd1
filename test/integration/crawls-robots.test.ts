import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlHarness, type CrawlHarness, type Json } from '../fixtures/crawl-site/crawl-harness.js';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/crawl-site.js';

// robots.txt for our token (Gleaner), Crawl-delay, a robots.txt answering 500, robots off.

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

async function crawl(json: Json): Promise<{ done: Json; pages: Json[]; listing: Json }> {
  const res = await app.request('/v1/crawls', { json });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const done = await app.waitForCrawl(res.body.id as string);
  const listing = (await app.request(`/v1/crawls/${res.body.id}/pages`)).body;
  return { done, pages: await app.allPages(res.body.id as string), listing };
}

describe('robots.txt', () => {
  it('paces a host by its Crawl-delay', async () => {
    const { done } = await crawl({ start_url: site.u(HOSTS.slow, '/'), max_pages: 4 });
    expect(done).toMatchObject({ stop_reason: 'max_pages', pages_count: 4 });
    const arrivals = site.arrivals(HOSTS.slow);
    expect(arrivals).toHaveLength(4);
    const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(950);
  });

  it('completes with nothing, and says why, when robots.txt answers 500 (RFC 9309: the site is disallowed)', async () => {
    const { done, pages } = await crawl({ start_url: site.u(HOSTS.broken, '/'), max_pages: 10 });
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'robots_unreachable', pages_count: 0 });
    expect(done.warning).toContain('answered HTTP 500');
    expect(done.warning).toContain('RFC 9309');
    expect(pages).toEqual([]);
    expect(site.hits(HOSTS.broken, '/')).toBe(0);
  });

  it('completes with nothing when robots.txt disallows the start URL for our user agent', async () => {
    const { done, listing } = await crawl({ start_url: site.u(S, '/not-for-gleaner'), max_pages: 10 });
    expect(done).toMatchObject({ stop_reason: 'robots_disallowed', pages_count: 0, blocked_count: 1 });
    expect(done.warning).toContain('Gleaner');
    expect(listing.pages).toEqual([]);
    expect(site.hits(S, '/not-for-gleaner')).toBe(0);
  });

  it('ignores robots.txt, Crawl-delay included, with follow_robots_txt false', async () => {
    const robotsBefore = site.hits(HOSTS.broken, '/robots.txt');
    const { done, pages } = await crawl({
      start_url: site.u(HOSTS.broken, '/'),
      max_pages: 10,
      follow_robots_txt: false,
    });
    expect(done).toMatchObject({ stop_reason: 'exhausted', pages_count: 2, follow_robots_txt: false });
    expect(pages.map((p) => p.url)).toContain(site.u(HOSTS.broken, '/a'));
    expect(site.hits(HOSTS.broken, '/robots.txt')).toBe(robotsBefore);
    const { pages: direct } = await crawl({
      start_url: site.u(S, '/'),
      max_pages: 50,
      max_depth: 1,
      follow_robots_txt: false,
    });
    expect(direct.map((p) => p.url)).toContain(site.u(S, '/private/secret'));
  });

  it('ends with the reason when the start host cannot be reached', async () => {
    const { done, listing } = await crawl({ start_url: 'http://nowhere.localhost/', max_pages: 10 });
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'start_failed', pages_count: 0 });
    expect(done.warning).toContain('nowhere.localhost');
    expect(listing.metadata.failed_urls).toEqual(['http://nowhere.localhost/']);
  });
});
