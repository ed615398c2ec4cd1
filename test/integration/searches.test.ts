import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

const doc = (title: string, body: string, description = '') =>
  html(
    `<html><head><title>${title}</title><meta name="description" content="${description}"></head><body><main>${body}</main></body></html>`,
  );

let site: FixtureServer;
let searxng: FakeSearxng;

beforeAll(async () => {
  site = await startFixtureServer({
    '/pricing': doc(
      'Acme pricing',
      '<h1>Plans</h1><p>The Starter plan costs 9 euros a month; Teams costs 29.</p>',
      'What Acme plans cost',
    ),
    '/about': doc('About Acme', '<p>Acme was founded in 1999 in a garage.</p>'),
    '/secret': doc('Other team roadmap', '<p>Pricing of the secret zebra launch: 99 euros.</p>'),
    '/gone': doc('Missing', '<p>pricing page not found</p>'),
  });
  searxng = await startFakeSearxng(() => ({
    results: [
      { url: site.url('/pricing'), title: 'Acme pricing', content: 'Starter costs 9 euros' },
      { url: 'https://elsewhere.example/pricing', title: 'Elsewhere', content: 'Other prices' },
    ],
  }));
});

afterAll(async () => {
  await searxng.close();
  await site.close();
});

async function scrape(app: TestApp, url: string, key?: string): Promise<void> {
  const res = await app.request('/v1/scrapes', { method: 'POST', json: { url_to_scrape: url }, key });
  expect(res.status).toBe(200);
}

describe.each(['postgres', 'pglite'] as const)('stored pages search (%s)', (database) => {
  let app: TestApp;
  let other: { teamId: string; key: string };

  beforeAll(async () => {
    app = await startTestApp({ database, config: { outbound: allowLocalPorts(site.port) } });
    other = await app.otherTeam();
    await scrape(app, site.url('/pricing'));
    await scrape(app, site.url('/pricing')); // twice: one result per URL
    await scrape(app, site.url('/about'));
    await scrape(app, site.url('/secret'), other.key);
  }, 60_000);
  afterAll(async () => app?.close());

  it('finds the team’s own pages by their words, stemmed, best first, once per URL', async () => {
    const res = await app.request('/v1/searches', { method: 'POST', json: { query: 'price of plans', limit: null } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(body).toMatchObject({ object: 'search', query: 'price of plans', provider: 'stored' });
    expect(body.id).toMatch(/^search_[0-9a-z]{20}$/);
    expect(body.created).toBeTypeOf('number');
    expect(body.results).toEqual([
      { url: site.url('/pricing'), title: 'Acme pricing', snippet: 'What Acme plans cost' },
    ]);
    expect(body.result.links[0]).toEqual({
      url: site.url('/pricing'),
      title: 'Acme pricing',
      description: 'What Acme plans cost',
    });
  });

  it('never finds another team’s pages', async () => {
    const mine = (await (
      await app.request('/v1/searches', { method: 'POST', json: { query: 'zebra launch' } })
    ).json()) as Body;
    expect(mine.results).toEqual([]);
    const theirs = (await (
      await app.request('/v1/searches', { method: 'POST', json: { query: 'zebra launch' }, key: other.key })
    ).json()) as Body;
    expect(theirs.results.map((r: Body) => r.url)).toEqual([site.url('/secret')]);
  });

  it('any word may match; the limit and domain filters apply', async () => {
    const res = await app.request('/v1/searches', {
      method: 'POST',
      json: { query: 'garage pricing', limit: 1 },
    });
    const body = (await res.json()) as Body;
    expect(body.results).toHaveLength(1);
    const both = (await (
      await app.request('/v1/searches', { method: 'POST', json: { query: 'garage pricing' } })
    ).json()) as Body;
    expect(both.results.map((r: Body) => r.url).sort()).toEqual([site.url('/about'), site.url('/pricing')].sort());
    const excluded = (await (
      await app.request('/v1/searches', {
        method: 'POST',
        json: { query: 'garage pricing', exclude_domains: ['127.0.0.1'] },
      })
    ).json()) as Body;
    expect(excluded.results).toEqual([]);
  });

  it('refuses bad input with the envelope', async () => {
    for (const json of [
      {},
      { query: '' },
      { query: '   ' },
      { query: 42 },
      { query: 'x'.repeat(2001) },
      { query: 'a', limit: 0 },
      { query: 'a', limit: 'ten' },
      { query: 'a', typo: true },
      { query: 'a', provider: 'google' },
    ]) {
      const res = await app.request('/v1/searches', { method: 'POST', json });
      const envelope = await expectEnvelope(res, 400);
      expect(envelope.code).toBe('validation_error');
    }
  });
});

describe('PAGE_SEARCH_TEXT_CHARS: how much of a page the index reads', () => {
  const search = async (app: TestApp, query: string) =>
    ((await (await app.request('/v1/searches', { method: 'POST', json: { query } })).json()) as Body).results.map(
      (r: Body) => r.url,
    );

  it('indexes that many characters of the text after the title and description; 0 indexes only those', async () => {
    // Markdown of /pricing: "# Plans\n\nThe Starter plan costs 9 euros a month; Teams costs 29."
    for (const [chars, starter, euros] of [
      [0, false, false],
      [24, true, false],
    ] as const) {
      const app = await startTestApp({
        config: { outbound: allowLocalPorts(site.port), pages: { searchTextChars: chars } },
      });
      try {
        await scrape(app, site.url('/pricing'));
        expect(await search(app, 'acme')).toEqual([site.url('/pricing')]); // the title
        expect(await search(app, 'cost')).toEqual([site.url('/pricing')]); // the description
        expect(await search(app, 'starter')).toEqual(starter ? [site.url('/pricing')] : []);
        expect(await search(app, 'euros')).toEqual(euros ? [site.url('/pricing')] : []);
      } finally {
        await app.close();
      }
    }
  }, 60_000);
});

describe('SearXNG as the configured provider', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      config: { outbound: allowLocalPorts(site.port), searxng: { url: searxng.url, timeoutMs: 2000 } },
    });
    await scrape(app, site.url('/about'));
  }, 60_000);
  afterAll(async () => app?.close());

  it('is the default; the stored pages stay reachable by id', async () => {
    const web = (await (
      await app.request('/v1/searches', { method: 'POST', json: { query: 'acme pricing', limit: 5 } })
    ).json()) as Body;
    expect(web.provider).toBe('searxng');
    expect(web.results.map((r: Body) => r.url)).toEqual([site.url('/pricing'), 'https://elsewhere.example/pricing']);
    expect(searxng.queries.at(-1)?.get('q')).toBe('acme pricing');
    const stored = (await (
      await app.request('/v1/searches', { method: 'POST', json: { query: 'garage', provider: 'stored' } })
    ).json()) as Body;
    expect(stored.results.map((r: Body) => r.url)).toEqual([site.url('/about')]);
  });

  it('include_domains keeps only those hosts', async () => {
    const body = (await (
      await app.request('/v1/searches', {
        method: 'POST',
        json: { query: 'acme pricing', include_domains: ['other.test'] },
      })
    ).json()) as Body;
    expect(body.results).toEqual([]);
    const kept = (await (
      await app.request('/v1/searches', {
        method: 'POST',
        json: { query: 'acme pricing', include_domains: ['elsewhere.example'] },
      })
    ).json()) as Body;
    expect(kept.results.map((r: Body) => r.url)).toEqual(['https://elsewhere.example/pricing']);
  });

  it('SearXNG down: 503 search_unavailable; garbage: 502 search_error', async () => {
    searxng.answer = () => ({ status: 500 });
    try {
      const down = await expectEnvelope(
        await app.request('/v1/searches', { method: 'POST', json: { query: 'acme' } }),
        503,
      );
      expect(down.code).toBe('search_unavailable');
      searxng.answer = () => ({ garbage: '<html>not json</html>' });
      const garbage = await expectEnvelope(
        await app.request('/v1/searches', { method: 'POST', json: { query: 'acme' } }),
        502,
      );
      expect(garbage.code).toBe('search_error');
    } finally {
      searxng.answer = () => ({
        results: [{ url: site.url('/pricing'), title: 'Acme pricing', content: 'Starter costs 9 euros' }],
      });
    }
  });

  it('GraphQL search', async () => {
    const res = await graphql(
      app.url,
      app.key,
      'query($q: String!) { search(query: $q, provider: "stored") { provider results { url title } } }',
      { q: 'garage' },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.search).toEqual({
      provider: 'stored',
      results: [{ url: site.url('/about'), title: 'About Acme' }],
    });
  });
});
