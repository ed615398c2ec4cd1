import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRobotsTxt, ROBOTS_MAX_BYTES } from '../../../src/discovery/robots.js';
import { countingFetcher, httpFetcher } from './support/http-fetcher.js';
import { redirectTo, send, startLocalSite, type LocalSite } from './support/local-site.js';

const opts = { fetch: httpFetcher, userAgent: 'Gleaner', retryDelayMs: 10 };

describe('fetchRobotsTxt over HTTP (RFC 9309 §2.3.1)', () => {
  let site: LocalSite;
  beforeAll(async () => {
    site = await startLocalSite();
  });
  afterAll(async () => {
    await site.close();
  });

  it('2xx: parses the rules, crawl-delay and sitemaps', async () => {
    site.route(
      '/robots.txt',
      send('User-agent: gleaner\nDisallow: /private\nCrawl-delay: 3\nSitemap: /sitemap-a.xml\n', 'text/plain'),
    );
    const result = await fetchRobotsTxt(site.url('/some/page'), opts);
    expect(result).toMatchObject({ url: site.url('/robots.txt'), status: 200, source: 'parsed', truncated: false });
    expect(result.policy.isAllowed(site.url('/private/x'))).toBe(false);
    expect(result.policy.isAllowed(site.url('/public'))).toBe(true);
    expect(result.policy.crawlDelay).toBe(3);
    expect(result.policy.sitemaps).toEqual([site.url('/sitemap-a.xml')]);
  });

  it('follows redirects and resolves sitemap lines against the final URL', async () => {
    site.route('/robots.txt', redirectTo('/moved/robots.txt'));
    site.route('/moved/robots.txt', send('User-agent: *\nDisallow: /x\nSitemap: sitemap.xml', 'text/plain'));
    const result = await fetchRobotsTxt(site.origin, opts);
    expect(result.source).toBe('parsed');
    expect(result.policy.isAllowed('/x')).toBe(false);
    expect(result.policy.sitemaps).toEqual([site.url('/moved/sitemap.xml')]);
  });

  it('more than five redirects: unavailable, allow all', async () => {
    site.route('/robots.txt', redirectTo('/robots.txt'));
    const result = await fetchRobotsTxt(site.origin, opts);
    expect(result).toMatchObject({ source: 'unavailable', status: 301 });
    expect(result.policy.isAllowed('/anything')).toBe(true);
  });

  it.each([400, 401, 403, 404, 410])('%i: unavailable, allow all, no retry', async (status) => {
    site.route('/robots.txt', send('Disallow: /', 'text/plain', status));
    const fetcher = countingFetcher();
    const result = await fetchRobotsTxt(site.origin, { ...opts, fetch: fetcher });
    expect(result).toMatchObject({ status, source: 'unavailable' });
    expect(result.policy.verdict).toBe('allow_all');
    expect(result.policy.isAllowed('/anything')).toBe(true);
    expect(fetcher.urls).toHaveLength(1);
  });

  it.each([500, 502, 503, 429])('%i: unreachable after the retries, disallow all', async (status) => {
    site.route('/robots.txt', send('User-agent: *\nAllow: /', 'text/plain', status));
    const fetcher = countingFetcher();
    const result = await fetchRobotsTxt(site.origin, { ...opts, fetch: fetcher, attempts: 3 });
    expect(result).toMatchObject({ status, source: 'unreachable', error: `HTTP ${status}` });
    expect(result.policy.verdict).toBe('disallow_all');
    expect(result.policy.isAllowed('/')).toBe(false);
    expect(result.policy.isAllowed('/robots.txt')).toBe(true);
    expect(fetcher.urls).toHaveLength(3);
  });

  it('a transient 503 followed by 200 is parsed', async () => {
    let calls = 0;
    site.route('/robots.txt', (req, res) =>
      ++calls === 1
        ? send('busy', 'text/plain', 503)(req, res)
        : send('User-agent: *\nDisallow: /x', 'text/plain')(req, res),
    );
    const result = await fetchRobotsTxt(site.origin, opts);
    expect(result.source).toBe('parsed');
    expect(result.policy.isAllowed('/x')).toBe(false);
    expect(calls).toBe(2);
  });

  it('no answer at all (connection refused): unreachable, disallow all, with the reason', async () => {
    const closed = await startLocalSite();
    const origin = closed.origin;
    await closed.close();
    const result = await fetchRobotsTxt(origin, opts);
    expect(result).toMatchObject({ status: null, source: 'unreachable' });
    expect(result.error).toMatch(/ECONNREFUSED/);
    expect(result.policy.isAllowed('/')).toBe(false);
  });

  it('reads at most 500 KiB: later rules are ignored and a rule cut at the limit is dropped', async () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const filler = `#${'x'.repeat(ROBOTS_MAX_BYTES - head.length - 16)}\n`; // the limit cuts "Disallow: /pri|"
    const cut = 'Disallow: /private-area\n'; // straddles the 500 KiB boundary
    const body = head + filler + cut + 'Disallow: /late\n'.repeat(1000);
    const offset = Buffer.byteLength(head + filler);
    expect(offset).toBeLessThan(ROBOTS_MAX_BYTES);
    expect(offset + cut.length).toBeGreaterThan(ROBOTS_MAX_BYTES);
    site.route('/robots.txt', send(body, 'text/plain'));
    const result = await fetchRobotsTxt(site.origin, opts);
    expect(result.truncated).toBe(true);
    expect(result.policy.isAllowed('/early')).toBe(false);
    expect(result.policy.isAllowed('/late')).toBe(true);
    expect(result.policy.isAllowed('/pri')).toBe(true); // the cut line would have read "Disallow: /pri…"
  });

  it('throws for a non-http URL and when the caller aborts', async () => {
    await expect(fetchRobotsTxt('ftp://a.example/', opts)).rejects.toThrow(TypeError);
    site.route('/robots.txt', (_req, res) => setTimeout(() => res.end('User-agent: *'), 2000));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const started = Date.now();
    await expect(fetchRobotsTxt(site.origin, { ...opts, signal: controller.signal })).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
