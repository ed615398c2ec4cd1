import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { trickle } from '../support/fixture-server.js';
import { allowLocalPorts } from '../support/config.js';
import {
  billionLaughsXml,
  calendarTrap,
  gzipFile,
  hugeSitemap,
  page,
  redirectTo,
  sitemapIndexXml,
  startMapSite,
  text,
  urlsetXml,
  xml,
  type MapSite,
} from '../fixtures/map-site/map-site.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

const IP = '127.0.0.1';
const PRODUCTS = 20_000;
const PARTS = 4;

let app: TestApp;
let site: MapSite;
let bad: MapSite;
/** robots.txt answers 500. */
let shy: MapSite;
/** The start page never finishes. */
let slow: MapSite;
let closedPort: number;
const u = (path: string) => site.url(IP, path);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, IP, r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** robots.txt → an index → a nested index → four gzip parts of 5,000 product URLs; a text sitemap; pages only linked. */
function buildMainSite(): void {
  const perPart = PRODUCTS / PARTS;
  const parts = Array.from({ length: PARTS }, (_, p) => u(`/sitemaps/products-${p + 1}.xml.gz`));
  site.serve(
    IP,
    '/robots.txt',
    text(
      `User-agent: *\nDisallow: /private/\n\nSitemap: ${u('/sitemaps/root-index.xml')}\nSitemap: ${u('/extra.txt')}\n`,
    ),
  );
  site.serve(IP, '/sitemaps/root-index.xml', xml(sitemapIndexXml([u('/sitemaps/level-1.xml')])));
  site.serve(IP, '/sitemaps/level-1.xml', xml(sitemapIndexXml(parts)));
  for (let p = 0; p < PARTS; p++) {
    const urls = Array.from({ length: perPart }, (_, i) => u(`/products/item-${p * perPart + i + 1}`));
    site.serve(IP, `/sitemaps/products-${p + 1}.xml.gz`, gzipFile(urlsetXml(urls)));
  }
  site.serve(
    IP,
    '/extra.txt',
    text(
      [u('/docs/getting-started'), u('/docs/install-guide'), u('/docs/pricing-plans'), u('/blog/hello-world')].join(
        '\n',
      ),
    ),
  );
  site.serve(
    IP,
    '/',
    page('Home', [
      ['/hidden/start', 'Start here'],
      ['/about?utm_source=newsletter#team', 'About us'],
      ['/private/secret', 'Members'],
      ['/gone', 'Old page'],
      ['/moved', 'Moved page'],
      ['/products/item-1', 'First product'],
      ['/calendar/1', 'Events'],
      ['http://other.example/elsewhere', 'Elsewhere'],
      ['mailto:hello@example.com', 'Mail'],
    ]),
  );
  site.serve(IP, '/products/*', page('A product', [['/', 'Home']]));
  site.serve(IP, '/about', page('About', [['/', 'Home']]));
  site.serve(IP, '/hidden/start', page('Hidden start', [['/hidden/deeper', 'Deeper pricing details']]));
  site.serve(IP, '/hidden/deeper', page('Deeper', [['/hidden/deepest', 'Deepest']]));
  site.serve(IP, '/hidden/deepest', page('Deepest', []));
  site.serve(IP, '/private/secret', page('Secret', [['/private/only-from-private', 'x']]));
  site.serve(IP, '/moved', redirectTo('/hidden/landing'));
  site.serve(IP, '/hidden/landing', page('Landing', []));
  site.serve(IP, '/calendar/*', calendarTrap());
}

/** Sitemaps that must not break a map: malformed XML, an XML bomb, 50 MB. */
function buildBadSite(): void {
  const b = (path: string) => bad.url(IP, path);
  bad.serve(
    IP,
    '/robots.txt',
    text(`Sitemap: ${b('/bomb.xml')}\nSitemap: ${b('/huge.xml')}\nSitemap: ${b('/broken.xml')}\n`),
  );
  bad.serve(IP, '/bomb.xml', xml(billionLaughsXml(b('/from-bomb'))));
  bad.serve(IP, '/huge.xml', hugeSitemap(bad.url(IP, ''), 50 * 1024 * 1024));
  bad.serve(
    IP,
    '/broken.xml',
    xml(
      `<?xml version="1.0"?><urlset><url><loc>${b('/ok-1')}</loc></url><url><loc>${b('/ok-2')}</loc></url><url><loc>${b('/cut')}`,
    ),
  );
  bad.serve(IP, '/', page('Bad sitemaps', [['/linked-page', 'Linked']]));
  bad.serve(IP, '/linked-page', page('Linked', []));
}

function buildShyAndSlowSites(): void {
  shy.serve(IP, '/robots.txt', text('temporarily broken', 500));
  shy.serve(IP, '/sitemap.xml', xml(urlsetXml([shy.url(IP, '/from-sitemap')])));
  shy.serve(IP, '/', page('Shy', [['/linked', 'Linked']]));
  slow.serve(IP, '/sitemap.xml', xml(urlsetXml([slow.url(IP, '/one'), slow.url(IP, '/two')])));
  slow.serve(IP, '/', trickle(['<html><body>', '<p>still loading'], { intervalMs: 500, end: false }));
  // The first answer of the sitemap is a dropped connection (a kept-alive socket the server closed).
  let dropped = false;
  slow.serve(IP, '/flaky/sitemap.xml', (req, res, url) => {
    if (!dropped) return void ((dropped = true), req.socket.destroy());
    return xml(urlsetXml([slow.url(IP, '/flaky/kept')]))(req, res, url);
  });
  slow.serve(IP, '/flaky/', page('Flaky'));
}

beforeAll(async () => {
  [site, bad, shy, slow] = await Promise.all([startMapSite(), startMapSite(), startMapSite(), startMapSite()]);
  closedPort = await freePort();
  buildMainSite();
  buildBadSite();
  buildShyAndSlowSites();
  app = await startTestApp({
    config: {
      outbound: allowLocalPorts(...[site, bad, shy, slow].map((s) => s.port), closedPort),
      map: { timeBudgetMs: 8000, maxPages: 25, maxUrls: 100_000 },
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
  await bad?.close();
  await shy?.close();
  await slow?.close();
});

const map = async (json: unknown) => {
  const res = await app.request('/v1/maps', { method: 'POST', json });
  return { status: res.status, body: (await res.json()) as Body };
};

describe('POST /v1/maps: sources', () => {
  let body: Body;
  beforeAll(async () => {
    const res = await map({ url: u('/') });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    body = res.body;
  });

  it('answers the spec shape', () => {
    expect(body).toMatchObject({ object: 'map', credits_consumed: 1, cost_usd: null, cursor: null });
    expect(body.id).toMatch(/^map_[a-z0-9]+$/);
    expect(body.urls_count).toBe(body.urls.length);
    expect(body.total_urls_count).toBe(body.urls.length);
  });

  it('reads robots.txt sitemap lines, nested indexes and gzip parts: all 20,000 products, in sitemap order', () => {
    const products = (body.urls as string[]).filter((x) => x.includes('/products/'));
    expect(products).toHaveLength(PRODUCTS);
    expect(products[0]).toBe(u('/products/item-1'));
    expect(products[PRODUCTS - 1]).toBe(u(`/products/item-${PRODUCTS}`));
  });

  it('reads plain-text sitemaps', () => {
    expect(body.urls).toEqual(expect.arrayContaining([u('/docs/getting-started'), u('/blog/hello-world')]));
  });

  it('finds pages reachable only by links, several levels deep, normalised', () => {
    expect(body.urls).toEqual(
      expect.arrayContaining([u('/hidden/start'), u('/hidden/deeper'), u('/hidden/deepest'), u('/about')]),
    );
    expect((body.urls as string[]).some((x) => x.includes('utm_') || x.includes('#'))).toBe(false);
  });

  it('lists each page once', () => {
    expect(new Set(body.urls).size).toBe(body.urls.length);
  });

  it('drops 404s and redirects (the redirect target is listed), off-site and non-http links', () => {
    expect(body.urls).not.toContain(u('/gone'));
    expect(body.urls).not.toContain(u('/moved'));
    expect(body.urls).toContain(u('/hidden/landing'));
    expect((body.urls as string[]).some((x) => x.includes('other.example') || x.startsWith('mailto:'))).toBe(false);
  });

  it('honours robots.txt when reading pages: a disallowed page is listed but never fetched', () => {
    expect(body.urls).toContain(u('/private/secret'));
    expect(body.urls).not.toContain(u('/private/only-from-private'));
    expect(site.hits(IP, '/private/secret')).toBe(0);
    expect(body.warning).toMatch(/robots\.txt disallows/);
  });

  it('bounds an endless calendar by the page budget', () => {
    expect(site.hitsUnder(IP, '/calendar/')).toBeLessThanOrEqual(25);
    expect(site.hitsUnder(IP, '/calendar/')).toBeGreaterThan(3);
  });

  it('is stored: GET /v1/maps/{id} returns the same result', async () => {
    const res = await app.request(`/v1/maps/${body.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(body);
  });
});

describe('POST /v1/maps: filters and ranking', () => {
  it('ranks by search_query (URL words and anchor text) and keeps top_n', async () => {
    const { status, body } = await map({ url: u('/'), search_query: 'pricing', top_n: 2 });
    expect(status).toBe(200);
    expect(body.urls).toHaveLength(2);
    expect(new Set(body.urls)).toEqual(new Set([u('/docs/pricing-plans'), u('/hidden/deeper')]));
    expect(body.total_urls_count).toBe(2);
  });

  it('orders everything by relevance without top_n', async () => {
    const { body } = await map({ url: u('/'), search_query: 'install guide' });
    expect(body.urls[0]).toBe(u('/docs/install-guide'));
    expect(body.urls.length).toBeGreaterThan(PRODUCTS);
  });

  it('applies include and exclude globs; exclusion wins', async () => {
    const { body } = await map({ url: u('/'), include_urls: ['/docs/**'], exclude_urls: ['/docs/install*'] });
    expect(body.urls).toEqual([u('/docs/getting-started'), u('/docs/pricing-plans')]);
  });

  it('reads pages outside include_urls to find included ones', async () => {
    const { body } = await map({ url: u('/'), include_urls: ['/hidden/deepest'] });
    expect(body.urls).toEqual([u('/hidden/deepest')]);
  });

  it('does not read excluded pages', async () => {
    const before = site.hits(IP, '/hidden/start') + site.hits(IP, '/hidden/deeper');
    const { body } = await map({ url: u('/'), exclude_urls: ['/hidden/**', '/products/**', '/calendar/**'] });
    expect(site.hits(IP, '/hidden/start') + site.hits(IP, '/hidden/deeper')).toBe(before);
    expect((body.urls as string[]).filter((x) => x.includes('/hidden/'))).toEqual([]);
    expect(body.urls).toContain(u('/about'));
  });
});

describe('POST /v1/maps: sitemaps that must not break a map', () => {
  let body: Body;
  let elapsedMs: number;
  beforeAll(async () => {
    const started = Date.now();
    const res = await map({ url: bad.url(IP, '/') });
    elapsedMs = Date.now() - started;
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    body = res.body;
  });

  it('keeps what a malformed sitemap yields and says it was malformed', () => {
    expect(body.urls).toEqual(expect.arrayContaining([bad.url(IP, '/ok-1'), bad.url(IP, '/ok-2')]));
    expect(body.urls).not.toContain(bad.url(IP, '/cut'));
    expect(body.warning).toMatch(/broken\.xml: .*\(malformed\)/);
  });

  it('never expands entities of an XML bomb', () => {
    expect(body.urls).toContain(bad.url(IP, '/from-bomb'));
    expect((body.urls as string[]).some((x) => x.includes('lol'))).toBe(false);
  });

  it('survives a 50 MB sitemap: refused at the size limit, named in the warning', () => {
    expect(body.warning).toMatch(/huge\.xml: .*larger than the \d+-byte limit/);
    expect(body.urls).toContain(bad.url(IP, '/linked-page'));
    expect(elapsedMs).toBeLessThan(8000 + 3000);
  });
});

describe('POST /v1/maps: sites that must not stall a map', () => {
  it('reads no page of a site whose robots.txt answers 500, but still its sitemaps', async () => {
    const { status, body } = await map({ url: shy.url(IP, '/') });
    expect(status).toBe(200);
    expect(body.urls).toEqual([shy.url(IP, '/from-sitemap'), shy.url(IP, '/')]);
    expect(shy.hits(IP, '/')).toBe(0);
    expect(body.warning).toMatch(/robots\.txt could not be read \(HTTP 500\)/);
  });

  it('tries a document once more when the connection was closed under it', async () => {
    const { status, body } = await map({ url: slow.url(IP, '/flaky/'), include_urls: ['/flaky/**'] });
    expect(status).toBe(200);
    expect(body.urls).toEqual([slow.url(IP, '/flaky/kept'), slow.url(IP, '/flaky/')]);
    expect(slow.hits(IP, '/flaky/sitemap.xml')).toBe(2);
  });

  it('answers at the time budget with what it found when a page never finishes', async () => {
    const started = Date.now();
    const { status, body } = await map({ url: slow.url(IP, '/') });
    const elapsed = Date.now() - started;
    expect(status).toBe(200);
    expect(body.urls).toEqual([slow.url(IP, '/one'), slow.url(IP, '/two'), slow.url(IP, '/')]);
    expect(body.warning).toMatch(/time budget/);
    expect(elapsed).toBeGreaterThanOrEqual(7500);
    expect(elapsed).toBeLessThan(8000 + 3000);
  });
});

describe('POST /v1/maps: bad input', () => {
  const expectValidation = async (json: unknown, detail: RegExp, status = 400) => {
    const res = await map(json);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.detail).toMatch(detail);
    return res.body;
  };

  it('needs url, an absolute http(s) URL', async () => {
    await expectValidation({}, /url: is required/);
    await expectValidation({ url: 'ftp://example.com/' }, /url: scheme "ftp" is not allowed/);
    await expectValidation({ url: '/relative' }, /url: .*not an absolute URL/);
    await expectValidation({ url: 42 }, /url: /);
  });

  it('refuses private targets with 403 blacklisted_domain', async () => {
    const body = await expectValidation({ url: 'http://10.1.2.3/' }, /private|not fetched/, 403);
    expect(body.code).toBe('blacklisted_domain');
    await expectValidation({ url: `http://${IP}:1/` }, /loopback|not fetched/, 403);
  });

  it('answers 502 when the site cannot be reached at all', async () => {
    const res = await map({ url: `http://${IP}:${closedPort}/` });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
  });

  it('refuses top_n without search_query', async () => {
    await expectValidation({ url: u('/'), top_n: 5 }, /top_n: requires search_query/);
    await expectValidation({ url: u('/'), search_query: 'x', top_n: 0 }, /top_n/);
    await expectValidation({ url: u('/'), search_query: 'x', top_n: 2.5 }, /top_n: must be a whole number/);
  });

  it('refuses globs that are not strings, and malformed patterns, naming the field', async () => {
    await expectValidation({ url: u('/'), include_urls: [42] }, /include_urls\[0\]: must be a string glob pattern/);
    await expectValidation({ url: u('/'), exclude_urls: '/docs/**' }, /exclude_urls: must be an array/);
    await expectValidation({ url: u('/'), include_urls: ['docs/**'] }, /include_urls\[0\]: invalid URL pattern/);
  });

  it('refuses unknown fields (a typo would silently change the map)', async () => {
    await expectValidation({ url: u('/'), include_subdomains: false }, /include_subdomains: unknown field/);
  });

  it('refuses cursors it never issued', async () => {
    const body = await expectValidation({ url: u('/'), cursor: 'abc' }, /cursor: not a cursor this service issued/);
    expect(body.metadata.field).toBe('cursor');
    await expectValidation({ url: u('/'), cursor: 42 }, /cursor: must be the string cursor/);
  });

  it('answers 404 for an unknown map', async () => {
    const res = await app.request('/v1/maps/map_doesnotexist');
    expect(res.status).toBe(404);
    expect(((await res.json()) as Body).code).toBe('map_not_found');
  });
});
