import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { createTestResolver } from '../contract/engine.contract.js';
import { testConfig } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { page, redirectTo, startMapSite, urlsetXml, xml, type MapSite } from '../fixtures/map-site/map-site.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

const SITE = 'site.localhost';
const DOCS = 'docs.site.localhost';
const BLOG = 'blog.site.localhost';
const OTHER = 'other.localhost';
const MOVED = 'moved.localhost';

let site: MapSite;
let db: TestDatabase;
let container: Container;
let server: RunningServer;
let key: string;
const u = (host: string, path: string) => site.url(host, path);

/**
 * `*.localhost` names do not resolve on every machine: the service gets a resolver mapping them
 * to 127.0.0.1 (the DNS edge, injected like in the engine contract tests), and the outbound
 * policy opens exactly the fixture port.
 */
beforeAll(async () => {
  site = await startMapSite();
  site.serve(SITE, '/sitemap.xml', xml(urlsetXml([u(SITE, '/a'), u(SITE, '/b'), u(BLOG, '/welcome')])));
  site.serve(
    SITE,
    '/',
    page('Site', [
      [u(DOCS, '/'), 'Documentation'],
      ['/c', 'C'],
      [u(OTHER, '/x'), 'Another site'],
    ]),
  );
  site.serve(SITE, '/c', page('C'));
  site.serve(DOCS, '/', page('Docs', [['/guide/intro', 'Introduction']]));
  site.serve(DOCS, '/guide/intro', page('Intro'));
  site.serve(DOCS, '/sitemap.xml', xml(urlsetXml([u(DOCS, '/reference/api')])));
  site.serve(BLOG, '/sitemap.xml', xml(urlsetXml([u(BLOG, '/posts/1'), u(BLOG, '/posts/2')])));
  site.serve(OTHER, '/x', page('Other'));
  site.serve(OTHER, '/sitemap.xml', xml(urlsetXml([u(OTHER, '/never')])));
  site.serve(MOVED, '/', redirectTo(u(SITE, '/')));

  const names = Object.fromEntries([SITE, DOCS, BLOG, OTHER, MOVED].map((name) => [name, [['127.0.0.1']]]));
  db = await createTestDatabase();
  const config = testConfig({
    database: { url: db.url },
    outbound: { allowPrivate: false, denyDomains: [], allowAddresses: [`127.0.0.1:${site.port}`] },
    map: { timeBudgetMs: 8000, maxPages: 20, maxUrls: 100_000 },
  });
  container = await createContainer(config, { resolve: createTestResolver(names) });
  server = await startServer(container);
  key = (await container.services.apiKeys.bootstrap())!.secret;
}, 60_000);

afterAll(async () => {
  await server?.close();
  await container?.close();
  await db?.drop();
  await site?.close();
});

async function map(json: unknown): Promise<Body> {
  const res = await fetch(`${server.url}/v1/maps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  const body = (await res.json()) as Body;
  expect(res.status, JSON.stringify(body).slice(0, 400)).toBe(200);
  return body;
}

describe('maps and subdomains', () => {
  it('lists subdomain pages found by links and by sitemaps, and reads their sitemaps (include_subdomain defaults to true)', async () => {
    const body = await map({ url: u(SITE, '/') });
    expect(new Set(body.urls)).toEqual(
      new Set([
        u(SITE, '/a'),
        u(SITE, '/b'),
        u(SITE, '/c'),
        u(SITE, '/'),
        u(BLOG, '/welcome'),
        u(BLOG, '/posts/1'),
        u(BLOG, '/posts/2'),
        u(DOCS, '/'),
        u(DOCS, '/guide/intro'),
        u(DOCS, '/reference/api'),
      ]),
    );
    expect(site.hits(OTHER, '/x') + site.hits(OTHER, '/sitemap.xml')).toBe(0);
  });

  it('keeps to the start host with include_subdomain false, without touching subdomains', async () => {
    const docsBefore = site.hitsUnder(DOCS, '/');
    const blogBefore = site.hitsUnder(BLOG, '/');
    const body = await map({ url: u(SITE, '/'), include_subdomain: false });
    expect(new Set(body.urls)).toEqual(new Set([u(SITE, '/a'), u(SITE, '/b'), u(SITE, '/c'), u(SITE, '/')]));
    expect(site.hitsUnder(DOCS, '/')).toBe(docsBefore);
    expect(site.hitsUnder(BLOG, '/')).toBe(blogBefore);
  });

  it('follows a start page that redirected to another host, and reads that host’s sitemaps', async () => {
    const body = await map({ url: u(MOVED, '/'), include_subdomain: false });
    expect(new Set(body.urls)).toEqual(new Set([u(SITE, '/a'), u(SITE, '/b'), u(SITE, '/c'), u(SITE, '/')]));
  });

  it('combines subdomains with globs written for whole URLs', async () => {
    const body = await map({ url: u(SITE, '/'), include_urls: [`http://${DOCS}:*/**`] });
    expect(new Set(body.urls)).toEqual(new Set([u(DOCS, '/'), u(DOCS, '/guide/intro'), u(DOCS, '/reference/api')]));
  });
});
