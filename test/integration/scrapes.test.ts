import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { html, redirect, respond, startFixtureServer, trickle, type FixtureServer } from '../support/fixture-server.js';
import { allowLocalPorts } from '../support/config.js';

let app: TestApp;
let site: FixtureServer;
let secret: FixtureServer;
let closedPort: number;

const ARTICLE = `<!doctype html><html lang="en"><head><title>Fixture article</title>
<meta name="description" content="A page for tests"><meta property="og:title" content="OG title">
<link rel="canonical" href="/article"></head><body>
<nav><a href="/">Home</a></nav><main><h1>Hello</h1><p>Some <strong>bold</strong> text and <a href="/next">a link</a>.</p>
<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>
<pre><code class="language-js">const x = 1;</code></pre><img src="/img.png" alt="pic"></main>
<footer>footer text</footer></body></html>`;

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeAll(async () => {
  secret = await startFixtureServer({ '/*': html('<p>internal admin</p>') });
  closedPort = await freePort();
  site = await startFixtureServer({
    '/article': html(ARTICLE),
    '/missing': html('<h1>Gone</h1>', { status: 404 }),
    '/broken': html('<h1>Oops</h1>', { status: 500 }),
    '/to-private': redirect(`http://127.0.0.1:${secret.port}/`),
    '/loop': redirect('/loop'),
    '/slow': trickle(['<html><body><p>', 'still going'], { intervalMs: 200, end: false }),
    '/huge.txt': respond('x'.repeat(7 * 1024 * 1024), 'text/plain'),
    '/too-big': respond('<p>' + 'y'.repeat(9 * 1024 * 1024) + '</p>', 'text/html'),
    '/data.json': respond('{"a":[1,2]}', 'application/json'),
  });
  app = await startTestApp({
    config: {
      outbound: { ...allowLocalPorts(site.port, closedPort), denyDomains: ['denied.example'] },
      scrape: { timeoutMs: 2000, maxResponseBytes: 8 * 1024 * 1024 },
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
  await secret?.close();
});

const scrape = (json: unknown) => app.request('/v1/scrapes', { method: 'POST', json });

async function storedCounts(): Promise<{ scrapes: number; pages: number }> {
  const conn = app.container.db.orm.em.getConnection();
  const [row] = await conn.execute<{ scrapes: number; pages: number }[]>(
    'select (select count(*)::int from scrapes) as scrapes, (select count(*)::int from pages) as pages',
  );
  return row!;
}

describe('POST /v1/scrapes', () => {
  it('returns markdown by default with every field clients require', async () => {
    const res = await scrape({ url_to_scrape: site.url('/article'), metadata: { run: '1' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body).toMatchObject({
      object: 'scrape',
      url: site.url('/article'),
      url_to_scrape: site.url('/article'),
      metadata: { run: '1' },
      size_exceeded: false,
      credits_consumed: 1,
      cost_usd: null,
    });
    expect(body.id).toMatch(/^scrape_[0-9a-z]{20}$/);
    expect(Number.isInteger(body.created)).toBe(true);
    expect(body.retrieve_id).toBe(body.id.slice('scrape_'.length));
    expect(body.result.markdown_content).toContain('# Hello');
    expect(body.result.markdown_content).toContain('Some **bold** text and [a link](' + site.url('/next') + ')');
    expect(body.result.markdown_content).toContain('```js');
    expect(body.result.markdown_content).not.toContain('footer text');
    expect(body.result.html_content).toBeUndefined();
    expect(body.result.page_metadata).toMatchObject({
      status_code: 200,
      title: 'Fixture article',
      description: 'A page for tests',
      language: 'en',
      canonical_url: site.url('/article'),
      final_url: site.url('/article'),
      content_type: 'text/html',
      og_title: 'OG title',
      engine: 'http',
    });
    const hosted = await fetch(body.result.markdown_hosted_url);
    expect(hosted.status).toBe(200);
    expect(hosted.headers.get('content-type')).toContain('text/markdown');
    expect(await hosted.text()).toBe(body.result.markdown_content);
  });

  it('accepts `url` as an alias and returns html, text and links', async () => {
    const res = await scrape({
      url: site.url('/article'),
      formats: ['html', 'text', 'markdown'],
      links_on_page: { include_links: ['/next'] },
    });
    const body = (await res.json()) as { result: Record<string, unknown> };
    expect(body.result.html_content).toContain('<h1>Hello</h1>');
    expect(body.result.text_content).toContain('Hello');
    expect(body.result.links_on_page).toEqual([site.url('/next')]);
    expect(body.result.text_hosted_url).toMatch(/^http/);
  });

  it('keeps a 404 or 500 target as a scrape with its status code', async () => {
    for (const [path, status] of [
      ['/missing', 404],
      ['/broken', 500],
    ] as const) {
      const body = (await (await scrape({ url_to_scrape: site.url(path) })).json()) as {
        result: { page_metadata: { status_code: number } };
      };
      expect(body.result.page_metadata.status_code).toBe(status);
    }
  });

  it('converts JSON targets', async () => {
    const body = (await (await scrape({ url_to_scrape: site.url('/data.json') })).json()) as {
      result: { markdown_content: string };
    };
    expect(body.result.markdown_content).toContain('```json');
  });

  it('does not inline formats over 6 MB (size_exceeded) and serves them by hosted URL', async () => {
    const res = await scrape({ url_to_scrape: site.url('/huge.txt'), formats: ['text'] });
    const body = (await res.json()) as { size_exceeded: boolean; result: Record<string, string | null> };
    expect(body.size_exceeded).toBe(true);
    expect(body.result.text_content).toBeNull();
    const hosted = await fetch(body.result.text_hosted_url!);
    expect(Number(hosted.headers.get('content-length'))).toBe(7 * 1024 * 1024);
    await hosted.arrayBuffer();
  });

  it('is readable again by GET and by retrieve (all three formats query forms)', async () => {
    const created = (await (
      await scrape({ url_to_scrape: site.url('/article'), formats: ['markdown', 'html'] })
    ).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const got = (await (await app.request(`/v1/scrapes/${created.id}`)).json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(got.result.markdown_content).toBe(created.result.markdown_content);
    expect(got.result.html_content).toBe(created.result.html_content);
    expect(got).toMatchObject({ id: created.id, retrieve_id: created.retrieve_id, created: created.created });
    for (const q of ['formats=html&formats=markdown', 'formats[]=html&formats[]=markdown', 'formats=html,markdown']) {
      const r = (await (await app.request(`/v1/retrieve?retrieve_id=${created.retrieve_id}&${q}`)).json()) as Record<
        string,
        unknown
      >;
      expect(r.markdown_content).toBe(created.result.markdown_content);
      expect(r.html_content).toBe(created.result.html_content);
      expect(r.text_content).toBeUndefined();
      expect(r.size_exceeded).toBe(false);
    }
    const all = (await (await app.request(`/v1/retrieve?retrieve_id=${created.retrieve_id}`)).json()) as Record<
      string,
      unknown
    >;
    expect(Object.keys(all)).toEqual(
      expect.arrayContaining(['markdown_content', 'html_content', 'markdown_hosted_url']),
    );
  });

  it("answers 404 for an unknown or another team's scrape and retrieve id", async () => {
    const created = (await (await scrape({ url_to_scrape: site.url('/article') })).json()) as {
      id: string;
      retrieve_id: string;
    };
    const other = await app.otherTeam();
    const res = await app.request(`/v1/scrapes/${created.id}`, { key: other.key });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'scrape_not_found' });
    const r = await app.request(`/v1/retrieve?retrieve_id=${created.retrieve_id}`, { key: other.key });
    expect(r.status).toBe(404);
    expect((await app.request('/v1/scrapes/scrape_nope')).status).toBe(404);
  });
});

describe('bad input', () => {
  const cases: [string, unknown, RegExp][] = [
    ['missing URL', {}, /^url_to_scrape: is required/],
    ['wrong type', { url_to_scrape: 42 }, /^url_to_scrape: /],
    ['empty formats', { url_to_scrape: 'https://a.example', formats: [] }, /^formats: must list at least one format/],
    ['unknown format', { url_to_scrape: 'https://a.example', formats: ['pdf'] }, /^formats\[0\]: /],
    ['1-letter country', { url_to_scrape: 'https://a.example', country: 'U' }, /^country: /],
    ['3-letter country', { url_to_scrape: 'https://a.example', country: 'USA' }, /^country: /],
    ['negative wait', { url_to_scrape: 'https://a.example', wait_before_scraping: -1 }, /^wait_before_scraping: /],
    ['wait over 30 s', { url_to_scrape: 'https://a.example', wait_before_scraping: 30001 }, /^wait_before_scraping: /],
    ['unknown field', { url_to_scrape: 'https://a.example', formatz: ['html'] }, /^formatz: unknown field/],
    ['bad transformer', { url_to_scrape: 'https://a.example', transformer: 'magic' }, /^transformer: /],
    [
      'bad selectors JSON string',
      { url_to_scrape: 'https://a.example', remove_css_selectors: '[oops' },
      /remove_css_selectors/,
    ],
    ['remove_images not boolean', { url_to_scrape: 'https://a.example', remove_images: 'yes' }, /^remove_images: /],
    [
      'metadata value not string',
      { url_to_scrape: 'https://a.example', metadata: { a: 1 } },
      /^metadata\.a: must be a string/,
    ],
    ['relative URL', { url_to_scrape: '/relative' }, /^url_to_scrape: .*relative URLs are not accepted/],
    ['file URL', { url_to_scrape: 'file:///etc/passwd' }, /^url_to_scrape: scheme "file"/],
    ['javascript URL', { url_to_scrape: 'javascript:alert(1)' }, /^url_to_scrape: scheme "javascript"/],
    [
      'json without parser',
      { url_to_scrape: 'https://a.example', formats: ['json'] },
      /^formats: "json" needs a parser/,
    ],
    [
      'screen width 0',
      { url_to_scrape: 'https://a.example', screen_size: { screen_width: 0 } },
      /^screen_size\.screen_width: /,
    ],
    [
      'screen width 100000',
      { url_to_scrape: 'https://a.example', screen_size: { screen_width: 100000 } },
      /^screen_size\.screen_width: /,
    ],
    [
      '51 actions',
      { url_to_scrape: 'https://a.example', actions: Array.from({ length: 51 }, () => ({ type: 'press', key: 'a' })) },
      /^actions: at most 50/,
    ],
    ['unknown action', { url_to_scrape: 'https://a.example', actions: [{ type: 'dance' }] }, /^actions\[0\]\.type: /],
    [
      'action without selector',
      { url_to_scrape: 'https://a.example', actions: [{ type: 'click' }] },
      /^actions\[0\]\.selector: /,
    ],
    [
      'waits over 60 s',
      {
        url_to_scrape: 'https://a.example',
        actions: [
          { type: 'wait', milliseconds: 40000 },
          { type: 'wait', milliseconds: 30000 },
        ],
      },
      /^actions: actions wait 70000 ms/,
    ],
  ];
  it.each(cases)('refuses %s with 400 naming the field, storing nothing', async (_, json, detail) => {
    const before = await storedCounts();
    const res = await scrape(json);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as { code: string; detail: string };
    expect(body.code).toBe('validation_error');
    expect(body.detail).toMatch(detail);
    expect(await storedCounts()).toEqual(before);
  });

  it('refuses an unknown parser with 404 parser_not_found', async () => {
    const res = await scrape({ url_to_scrape: site.url('/article'), formats: ['json'], parser: { id: 'nope' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'parser_not_found' });
  });

  const blocked: [string, () => string][] = [
    ['[::1]', () => 'http://[::1]/'],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['hex loopback 0x7f.1', () => `http://0x7f.1:${secret.port}/`],
    ['decimal loopback', () => `http://2130706433:${secret.port}/`],
    ['a host resolving to 127.0.0.1', () => `http://localhost:${secret.port}/`],
    ['a private port of an allowed host', () => `http://127.0.0.1:${secret.port}/`],
    ['a redirect to a private address', () => site.url('/to-private')],
    ['a denied domain', () => 'http://www.denied.example/'],
  ];
  it.each(blocked)('refuses %s with 403 blacklisted_domain and fetches nothing', async (_, url) => {
    const before = await storedCounts();
    const hits = secret.requests.length;
    const res = await scrape({ url_to_scrape: url() });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'blacklisted_domain', title: 'Forbidden' });
    expect(secret.requests.length).toBe(hits);
    expect(await storedCounts()).toEqual(before);
  });

  const upstream: [string, () => string, number, string][] = [
    ['a name that does not resolve', () => 'http://no-such-host.invalid/', 502, 'upstream_error'],
    ['a refused connection', () => `http://127.0.0.1:${closedPort}/`, 502, 'upstream_error'],
    ['a TLS error', () => `https://127.0.0.1:${site.port}/article`, 502, 'upstream_error'],
    ['an endless redirect loop', () => site.url('/loop'), 502, 'upstream_error'],
    ['a page over the size limit', () => site.url('/too-big'), 502, 'upstream_error'],
    ['a page that never finishes', () => site.url('/slow'), 504, 'request_timeout'],
  ];
  it.each(upstream)('answers %s with its status and leaves nothing behind', async (_, url, status, code) => {
    const before = await storedCounts();
    const res = await scrape({ url_to_scrape: url() });
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ code });
    expect(await storedCounts()).toEqual(before);
  });
});
