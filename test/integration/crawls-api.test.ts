import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrawlHarness, type CrawlHarness, type Json } from '../fixtures/crawl-site/crawl-harness.js';
import { HOSTS, startCrawlSite, type CrawlSite } from '../fixtures/crawl-site/crawl-site.js';
import { wsClient } from '../support/graphql-ws.js';

// Bad input (nothing created), the filter preview, and the GraphQL door.

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

describe('bad input', () => {
  const start = () => site.u(S, '/');
  const cases: [string, () => Json, number, RegExp][] = [
    ['max_pages missing', () => ({ start_url: start() }), 400, /^max_pages: is required/],
    ['max_pages 0', () => ({ start_url: start(), max_pages: 0 }), 400, /^max_pages: must be at least 1/],
    ['max_pages negative', () => ({ start_url: start(), max_pages: -5 }), 400, /^max_pages: must be at least 1/],
    ['max_pages not a number', () => ({ start_url: start(), max_pages: '10' }), 400, /^max_pages: must be a number/],
    ['max_pages fractional', () => ({ start_url: start(), max_pages: 1.5 }), 400, /^max_pages: must be a whole number/],
    [
      'max_pages over the server cap',
      () => ({ start_url: start(), max_pages: 20_000 }),
      400,
      /^max_pages: .*on this server/,
    ],
    [
      'max_depth negative',
      () => ({ start_url: start(), max_pages: 5, max_depth: -1 }),
      400,
      /^max_depth: must be 0 or more/,
    ],
    ['start_url missing', () => ({ max_pages: 5 }), 400, /^start_url: is required/],
    ['start_url relative', () => ({ start_url: '/docs', max_pages: 5 }), 400, /^start_url: .*not an absolute URL/],
    [
      'start_url not http(s)',
      () => ({ start_url: 'ftp://example.com/', max_pages: 5 }),
      400,
      /^start_url: scheme "ftp"/,
    ],
    ['start_url private', () => ({ start_url: 'http://10.1.2.3/', max_pages: 5 }), 403, /^start_url: /],
    ['start_url metadata', () => ({ start_url: 'http://169.254.169.254/', max_pages: 5 }), 403, /^start_url: /],
    [
      'start_url resolving to a closed private port',
      () => ({ start_url: `http://${S}:1/`, max_pages: 5 }),
      403,
      /^start_url: site\.localhost resolves to/,
    ],
    [
      'a glob that is not a string',
      () => ({ start_url: start(), max_pages: 5, include_urls: [1] }),
      400,
      /^include_urls\[0\]: must be a string glob pattern/,
    ],
    [
      'globs not an array',
      () => ({ start_url: start(), max_pages: 5, exclude_urls: '/docs/**' }),
      400,
      /^exclude_urls: must be an array/,
    ],
    [
      'a glob that cannot match',
      () => ({ start_url: start(), max_pages: 5, exclude_urls: ['docs/**'] }),
      400,
      /^exclude_urls\[0\]: invalid URL pattern/,
    ],
    [
      'top_n without search_query',
      () => ({ start_url: start(), max_pages: 5, top_n: 3 }),
      400,
      /^top_n: requires search_query/,
    ],
    ['timeout 0', () => ({ start_url: start(), max_pages: 5, timeout: 0 }), 400, /^timeout: must be more than 0/],
    [
      'an unknown scrape option',
      () => ({ start_url: start(), max_pages: 5, scrape_options: { format: ['html'] } }),
      400,
      /^scrape_options\.format: unknown field/,
    ],
    [
      'json without a parser',
      () => ({ start_url: start(), max_pages: 5, scrape_options: { formats: ['json'] } }),
      400,
      /^formats: "json" needs a parser/,
    ],
    [
      'a webhook that is not http(s)',
      () => ({ start_url: start(), max_pages: 5, webhook: 'ftp://hooks.example/x' }),
      400,
      /^webhook: scheme "ftp"/,
    ],
    [
      'a webhook on a private network',
      () => ({ start_url: start(), max_pages: 5, webhook_url: 'https://192.168.1.10/hook' }),
      403,
      /^webhook_url: /,
    ],
    ['an unknown field', () => ({ start_url: start(), max_pages: 5, maxPages: 5 }), 400, /^maxPages: unknown field/],
  ];
  it.each(cases)('refuses %s, in the error envelope, and creates nothing', async (_, body, status, detail) => {
    const before = [await app.count('crawls'), await app.count('crawl_frontier')];
    const res = await app.request('/v1/crawls', { json: body() });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({
      object: 'error',
      status,
      code: status === 400 ? 'validation_error' : 'blacklisted_domain',
    });
    expect(res.body.detail).toMatch(detail);
    expect([await app.count('crawls'), await app.count('crawl_frontier')]).toEqual(before);
  });

  it('refuses bad paging and unknown crawls', async () => {
    for (const query of ['limit=0', 'limit=101', 'cursor=-1', 'cursor=x']) {
      const res = await app.request(`/v1/crawls/crawl_unknown/pages?${query}`);
      expect(res.status, query).toBe(400);
    }
    const res = await app.request('/v1/crawls/crawl_unknown');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('crawl_not_found');
  });
});

describe('filter preview', () => {
  it('says which URLs a filter set keeps and which pattern decided, exclusion winning', async () => {
    const res = await app.request('/v1/crawls/preview', {
      json: {
        include_urls: ['/docs/**', 'https://*.example.com/blog/**'],
        exclude_urls: ['**/*.pdf'],
        urls: [
          'https://example.com/docs',
          'https://example.com/docs/a/b',
          'https://example.com/docs/manual.pdf',
          'https://www.example.com/blog/post',
          'https://example.com/pricing',
          'not a url',
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'crawl_filter_preview', kept: 3 });
    expect(res.body.results).toEqual([
      { url: 'https://example.com/docs', keep: true, reason: 'included', pattern: '/docs/**' },
      { url: 'https://example.com/docs/a/b', keep: true, reason: 'included', pattern: '/docs/**' },
      { url: 'https://example.com/docs/manual.pdf', keep: false, reason: 'excluded', pattern: '**/*.pdf' },
      {
        url: 'https://www.example.com/blog/post',
        keep: true,
        reason: 'included',
        pattern: 'https://*.example.com/blog/**',
      },
      { url: 'https://example.com/pricing', keep: false, reason: 'not_included' },
      { url: 'not a url', keep: false, reason: 'invalid_url' },
    ]);
  });

  it('uses the crawl default (/**) without include_urls, and names a bad pattern', async () => {
    const ok = await app.request('/v1/crawls/preview', { json: { urls: ['https://example.com/x?y=1'] } });
    expect(ok.body.results).toEqual([
      { url: 'https://example.com/x?y=1', keep: true, reason: 'included', pattern: '/**' },
    ]);
    const bad = await app.request('/v1/crawls/preview', {
      json: { include_urls: ['/ok', 'a#b'], urls: ['https://e.com/'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^include_urls\[1\]: /);
  });
});

describe('GraphQL', () => {
  const gql = async (query: string, variables: Json = {}) =>
    (await app.request('/graphql', { json: { query, variables } })).body;

  it('creates a crawl, follows its progress (current state first) and reads its pages', async () => {
    const created = await gql(
      'mutation($input: CreateCrawlInput!) { createCrawl(input: $input) { id status maxPages includeUrls scrapeOptions } }',
      {
        input: {
          startUrl: site.u(S, '/blog/'),
          maxPages: 3,
          scrapeOptions: { formats: ['markdown'], removeImages: true },
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const crawl = created.data.createCrawl;
    expect(crawl).toMatchObject({ status: 'in_progress', maxPages: 3, includeUrls: ['/**'] });
    expect(crawl.scrapeOptions).toEqual({ formats: ['markdown'], remove_images: true });
    const client = wsClient(app.server.url, app.key);
    const events: Json[] = [];
    await new Promise<void>((resolve, reject) => {
      const stop = client.subscribe<{ crawlProgress: Json }>(
        { query: `subscription { crawlProgress(id: "${crawl.id}") { crawlId status pagesCount } }` },
        {
          next: (value) => events.push(value.data!.crawlProgress),
          error: reject,
          complete: () => {
            stop();
            resolve();
          },
        },
      );
    });
    await client.dispose();
    expect(events[0]).toMatchObject({ crawlId: crawl.id });
    expect(events[events.length - 1]).toMatchObject({ crawlId: crawl.id, status: 'completed', pagesCount: 3 });
    expect(events.slice(0, -1).every((e) => e.status === 'in_progress')).toBe(true);
    const read = await gql(
      'query($id: ID!) { crawl(id: $id) { status pagesCount stopReason pages(limit: 2) { pagesCount cursor pages { url retrieveId isExternal depth } } } }',
      { id: crawl.id },
    );
    expect(read.data.crawl).toMatchObject({ status: 'completed', pagesCount: 3, stopReason: 'max_pages' });
    expect(read.data.crawl.pages).toMatchObject({ pagesCount: 3, cursor: 2 });
    expect(read.data.crawl.pages.pages[0]).toMatchObject({ url: site.u(S, '/blog/'), isExternal: false, depth: 0 });
  });

  it('validates with the same rules as REST, naming fields in camelCase', async () => {
    const res = await gql('mutation($input: CreateCrawlInput!) { createCrawl(input: $input) { id } }', {
      input: { startUrl: site.u(S, '/'), maxPages: 0 },
    });
    expect(res.errors[0].extensions.code).toBe('validation_error');
    expect(res.errors[0].message).toMatch(/^input\.maxPages: must be at least 1/);
    const topN = await gql('mutation($input: CreateCrawlInput!) { createCrawl(input: $input) { id } }', {
      input: { startUrl: site.u(S, '/'), maxPages: 3, topN: 2 },
    });
    expect(topN.errors[0].message).toMatch(/^input\.topN: requires search_query/);
    const unknown = await gql('{ crawl(id: "crawl_nope") { id } }');
    expect(unknown.errors[0].extensions.code).toBe('crawl_not_found');
  });

  it('previews a filter set', async () => {
    const res = await gql(
      '{ previewCrawlFilter(includeUrls: ["/docs/**"], urls: ["https://e.com/docs/a", "https://e.com/b"]) { url keep pattern } }',
    );
    expect(res.data.previewCrawlFilter).toEqual([
      { url: 'https://e.com/docs/a', keep: true, pattern: '/docs/**' },
      { url: 'https://e.com/b', keep: false, pattern: null },
    ]);
  });
});
