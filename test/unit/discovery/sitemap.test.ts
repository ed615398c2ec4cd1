import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { collectSitemapUrls } from '../../../src/discovery/sitemap.js';
import type { DiscoveredUrl } from '../../../src/discovery/types.js';
import { countingFetcher, httpFetcher } from './support/http-fetcher.js';
import {
  delayed,
  redirectTo,
  send,
  sendGzip,
  sitemapIndex,
  startLocalSite,
  urlset,
  type LocalSite,
} from './support/local-site.js';

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

describe('collectSitemapUrls: a nested index with gzip parts, plain text and cycles (20,000 URLs)', () => {
  let site: LocalSite;
  let expected: string[];
  beforeAll(async () => {
    site = await startLocalSite();
    const u = (path: string) => site.url(path);
    const blog1 = range(5000, (i) => u(`/blog/post-${i}`));
    const blog2 = range(5000, (i) => u(`/blog/post-${5000 + i}`));
    const pages = range(5000, (i) => u(`/page/${i}`));
    const products = range(5000, (i) => u(`/products/item-${i}`));
    expected = [...pages, ...blog1, ...blog2, ...products];
    // Spellings of pages listed earlier (trailing slash, tracking, fragment): dedupe drops them.
    const variants = range(100, (i) => `${u(`/blog/post-${i}`)}/?utm_source=feed#top`);
    site.route(
      '/robots.txt',
      send(`User-agent: *\nDisallow: /admin\nSitemap: ${u('/sitemaps/index.xml')}\n`, 'text/plain'),
    );
    site.route(
      '/sitemaps/index.xml',
      send(sitemapIndex([u('/sitemaps/pages.xml.gz'), u('/sitemaps/blog-index.xml'), u('/sitemaps/index.xml')])),
    );
    site.route('/sitemaps/pages.xml.gz', sendGzip(urlset(pages, '2024-06-01')));
    site.route(
      '/sitemaps/blog-index.xml',
      send(sitemapIndex([u('/sitemaps/blog-1.xml.gz'), u('/sitemaps/blog-2.xml.gz'), u('/sitemaps/deeper.xml')])),
    );
    site.route('/sitemaps/blog-1.xml.gz', sendGzip(urlset(blog1)));
    site.route('/sitemaps/blog-2.xml.gz', sendGzip(urlset(blog2)));
    site.route(
      '/sitemaps/deeper.xml',
      send(
        sitemapIndex([u('/sitemaps/products.txt'), u('/sitemaps/index.xml'), `${u('/sitemaps/blog-index.xml')}#again`]),
      ),
    );
    site.route('/sitemaps/products.txt', send([...products, ...variants].join('\n'), 'text/plain'));
    site.route('/sitemap_index.xml', send('<!doctype html><html><body>Welcome!</body></html>', 'text/html')); // a soft 404
  });
  afterAll(async () => {
    await site.close();
  });

  it('finds every URL once, reads every document once and reports nothing', async () => {
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher });
    expect(result.errors).toEqual([]);
    expect(result.count).toBe(20_000);
    expect(new Set(result.urls.map((e) => e.url))).toEqual(new Set(expected));
    expect(result.urls.map((e) => e.url)).toEqual(expected); // breadth-first, document order
    expect(result.stoppedBy).toBeUndefined();
    expect(result.urls[0]).toEqual({ url: site.url('/page/0'), lastmod: '2024-06-01T00:00:00.000Z' });
    for (const path of [
      '/robots.txt',
      '/sitemaps/index.xml',
      '/sitemaps/blog-index.xml',
      '/sitemaps/deeper.xml',
      '/sitemaps/products.txt',
      '/sitemap.xml',
    ]) {
      expect(site.hits(path), path).toBe(1);
    }
    expect(result.sitemaps).toEqual([
      site.url('/sitemaps/index.xml'),
      site.url('/sitemaps/pages.xml.gz'),
      site.url('/sitemaps/blog-index.xml'),
      site.url('/sitemaps/blog-1.xml.gz'),
      site.url('/sitemaps/blog-2.xml.gz'),
      site.url('/sitemaps/deeper.xml'),
      site.url('/sitemaps/products.txt'),
    ]);
  });

  it('bounds index nesting with maxDepth and says what was skipped', async () => {
    // robots.txt → index.xml (depth 0) → blog-index.xml (1) → deeper.xml (2) → products.txt (3)
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher, maxDepth: 2 });
    expect(result.count).toBe(15_000);
    expect(result.errors).toEqual([
      {
        url: site.url('/sitemaps/products.txt'),
        code: 'max_depth',
        message: 'sitemap nested deeper than 2 levels; not read',
      },
    ]);
  });

  it('stops at maxUrls', async () => {
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher, maxUrls: 7_500 });
    expect(result.count).toBe(7_500);
    expect(result.urls).toHaveLength(7_500);
    expect(result.stoppedBy).toBe('max_urls');
  });

  it('applies the filter before counting, and streams each document’s new URLs', async () => {
    const batches: (readonly DiscoveredUrl[])[] = [];
    const result = await collectSitemapUrls(site.url('/'), {
      fetch: httpFetcher,
      filter: (url) => new URL(url).pathname.startsWith('/blog/'),
      maxUrls: 6_000,
      onUrls: (urls) => batches.push(urls),
    });
    expect(result.count).toBe(6_000);
    expect(result.urls.every((e) => e.url.includes('/blog/'))).toBe(true);
    expect(batches.map((b) => b.length)).toEqual([5000, 1000]);
    expect(batches.flat()).toEqual(result.urls);
  });

  it('uses sitemap lines given by the caller instead of fetching robots.txt', async () => {
    const fetcher = countingFetcher();
    const result = await collectSitemapUrls(site.url('/'), {
      fetch: fetcher,
      robotsSitemaps: [site.url('/sitemaps/blog-1.xml.gz')],
    });
    expect(fetcher.urls).not.toContain(site.url('/robots.txt'));
    expect(fetcher.urls[0]).toBe(site.url('/sitemaps/blog-1.xml.gz'));
    expect(result.count).toBe(5_000);
  });
});

describe('collectSitemapUrls: sources, failures and limits', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await startLocalSite();
  });
  afterAll(async () => {
    await site.close();
  });
  afterEach(() => {
    for (const path of ['/robots.txt', '/sitemap.xml', '/sitemap_index.xml', '/docs/sitemap.xml', '/s.xml']) {
      site.route(path, send('gone', 'text/plain', 404));
    }
  });

  it('falls back to /sitemap.xml when there is no robots.txt', async () => {
    site.route('/sitemap.xml', send(urlset([site.url('/a'), site.url('/b')])));
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher });
    expect(result.urls.map((e) => e.url)).toEqual([site.url('/a'), site.url('/b')]);
    expect(result.errors).toEqual([]);
  });

  it('still reads /sitemap.xml when robots.txt answers 500', async () => {
    site.route('/robots.txt', send('oops', 'text/plain', 500));
    site.route('/sitemap.xml', send(urlset([site.url('/a')])));
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher });
    expect(result.count).toBe(1);
  });

  it('tries <dir>/sitemap.xml for a start URL below the root, and /sitemap_index.xml', async () => {
    site.route('/docs/sitemap.xml', send(urlset([site.url('/docs/x')])));
    site.route('/sitemap_index.xml', send(sitemapIndex([site.url('/s.xml')])));
    site.route('/s.xml', send(site.url('/from-index'), 'text/plain'));
    const result = await collectSitemapUrls(site.url('/docs/guide/'), { fetch: httpFetcher });
    // Breadth-first: every start document before the children of an index.
    expect(result.urls.map((e) => e.url)).toEqual([site.url('/docs/x'), site.url('/from-index')]);
    expect(site.hits('/docs/guide/sitemap.xml')).toBe(1);
  });

  it('follows a sitemap redirect to another host and resolves relative locs against it', async () => {
    const other = `http://localhost:${site.port}`;
    site.route('/sitemap.xml', redirectTo(`${other}/moved/sitemap.xml`));
    site.route('/moved/sitemap.xml', send(urlset(['page-1', '/page-2'])));
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher });
    expect(result.urls.map((e) => e.url)).toEqual([`${other}/moved/page-1`, `${other}/page-2`]);
    site.route('/moved/sitemap.xml', send('gone', 'text/plain', 404));
  });

  it('reports listed sitemaps that fail, keeps going with the others', async () => {
    const closed = await startLocalSite();
    await closed.close();
    site.route(
      '/robots.txt',
      send(
        ['/s-500.xml', '/s-404.xml', `${closed.origin}/s.xml`, '/s.xml'].map((s) => `Sitemap: ${s}`).join('\n'),
        'text/plain',
      ),
    );
    site.route('/s-500.xml', send('no', 'text/plain', 500));
    site.route('/s.xml', send(urlset([site.url('/ok')])));
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher });
    expect(result.urls.map((e) => e.url)).toEqual([site.url('/ok')]);
    expect(result.errors).toEqual([
      { url: site.url('/s-500.xml'), code: 'http_status', message: 'HTTP 500' },
      { url: site.url('/s-404.xml'), code: 'http_status', message: 'HTTP 404' },
      { url: `${closed.origin}/s.xml`, code: 'fetch_failed', message: expect.stringContaining('ECONNREFUSED') },
    ]);
  });

  it('limits the number of documents read (maxSitemaps)', async () => {
    site.route('/sitemap.xml', send(sitemapIndex(range(10, (i) => site.url(`/part-${i}.xml`)))));
    for (let i = 0; i < 10; i++) site.route(`/part-${i}.xml`, send(urlset([site.url(`/p${i}`)])));
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher, maxSitemaps: 4, concurrency: 2 });
    // /sitemap.xml and /sitemap_index.xml are two of the four documents.
    expect(result.count).toBe(2);
    expect(result.errors).toEqual([
      {
        url: site.url('/part-2.xml'),
        code: 'max_sitemaps',
        message: 'more than 4 sitemap documents; the rest were not read',
      },
    ]);
    expect(site.hits('/part-2.xml')).toBe(0);
    expect(site.hits('/part-9.xml')).toBe(0);
  });

  it('returns what it has when the deadline passes, aborting slow fetches', async () => {
    site.route('/robots.txt', send('Sitemap: /fast.xml\nSitemap: /slow.xml\nSitemap: /later.xml', 'text/plain'));
    site.route('/fast.xml', send(urlset([site.url('/fast')])));
    site.route('/slow.xml', delayed(5000, send(urlset([site.url('/slow')]))));
    site.route('/later.xml', send(urlset([site.url('/later')])));
    const started = Date.now();
    const result = await collectSitemapUrls(site.url('/'), {
      fetch: httpFetcher,
      deadline: Date.now() + 400,
      concurrency: 2,
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(result.stoppedBy).toBe('deadline');
    expect(result.urls.map((e) => e.url)).toEqual([site.url('/fast')]);
    expect(result.errors).toEqual([{ url: site.url('/slow.xml'), code: 'deadline', message: expect.any(String) }]);
    expect(site.hits('/later.xml')).toBe(0);
  });

  it('stops when the caller aborts', async () => {
    site.route('/sitemap.xml', delayed(5000, send(urlset([site.url('/slow')]))));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher, signal: controller.signal });
    expect(result.stoppedBy).toBe('aborted');
    expect(result.count).toBe(0);
  });

  it('survives an XML bomb and malformed XML, returning what could be read', async () => {
    const lol = [
      '<!ENTITY lol "lol">',
      ...range(9, (i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`),
    ];
    site.route('/robots.txt', send('Sitemap: /bomb.xml\nSitemap: /broken.xml', 'text/plain'));
    site.route(
      '/bomb.xml',
      send(
        `<?xml version="1.0"?><!DOCTYPE urlset [${lol.join('')}]><urlset><url><loc>${site.url('/x/')}&lol9;</loc></url><url><loc>${site.url('/safe')}</loc></url></urlset>`,
      ),
    );
    site.route(
      '/broken.xml',
      send(`<urlset><url><loc>${site.url('/b1')}</loc></url><url><loc>${site.url('/b2')}</loc></url></url></urlset`),
    );
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher });
    expect(result.urls.map((e) => e.url)).toEqual([
      site.url('/x/&lol9;'),
      site.url('/safe'),
      site.url('/b1'),
      site.url('/b2'),
    ]);
    expect(result.errors).toEqual([
      { url: site.url('/broken.xml'), code: 'malformed', message: expect.stringContaining('malformed XML') },
    ]);
  });

  it('truncates a 50 MB sitemap at the default 20 MiB limit, with the reason', async () => {
    const row = (i: number) =>
      `<url><loc>${site.url(`/p/${String(i).padStart(8, '0')}`)}</loc><lastmod>2024-01-01</lastmod></url>\n`;
    const rowBytes = row(0).length;
    const count = Math.ceil((50 * 1024 * 1024) / rowBytes);
    const body = Buffer.from(`<urlset>\n${range(count, row).join('')}</urlset>`);
    expect(body.length).toBeGreaterThan(50 * 1024 * 1024);
    site.route('/sitemap.xml', send(body));
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher, maxUrls: 1_000_000 });
    expect(result.errors).toEqual([
      {
        url: site.url('/sitemap.xml'),
        code: 'too_large',
        message: `sitemap exceeds ${20 * 1024 * 1024} bytes; only the first ${20 * 1024 * 1024} were read`,
      },
    ]);
    // Entries count once their </loc> is inside the limit (a cut <lastmod> does not matter).
    const locEnd = row(0).indexOf('</loc>') + '</loc>'.length;
    expect(result.count).toBe(Math.floor((20 * 1024 * 1024 - '<urlset>\n'.length - locEnd) / rowBytes) + 1);
    site.route('/sitemap.xml', send('gone', 'text/plain', 404));
  }, 60_000);

  it('honours a smaller configured byte limit', async () => {
    site.route('/sitemap.xml', send(urlset(range(10_000, (i) => site.url(`/p/${i}`)))));
    const result = await collectSitemapUrls(site.url('/'), { fetch: httpFetcher, maxBytes: 64 * 1024 });
    expect(result.errors.map((e) => e.code)).toEqual(['too_large']);
    expect(result.count).toBeGreaterThan(1000);
    expect(result.count).toBeLessThan(10_000);
  });

  it('rejects a start URL that is not http(s)', async () => {
    await expect(collectSitemapUrls('ftp://example.com/', { fetch: httpFetcher })).rejects.toBeInstanceOf(AppError);
    await expect(collectSitemapUrls('not a url', { fetch: httpFetcher })).rejects.toMatchObject({ kind: 'validation' });
  });
});
