import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserProcessIds } from '../../engines/playwright/process-tree.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { allowLocalPorts } from '../support/config.js';

// Crawls run by the crawl-runner job on a Bree worker thread, as in `npm start`: the
// crawl.completed webhook, and a crawl whose pages need a browser.

let app: TestApp;
let site: FixtureServer;
let hooks: WebhookReceiver;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  site = await startFixtureServer({
    '/': html('<title>Home</title><h1>Home</h1><a href="/a">A</a> <a href="/b">B</a>'),
    '/a': html('<title>A</title><h1>A</h1><a href="/c">C</a>'),
    '/b': html('<title>B</title><h1>B</h1>'),
    '/c': html('<title>C</title><h1>C</h1>'),
    // Links exist only once the script has run.
    '/js': html(
      '<title>Script</title><body><h1>Script</h1><div id="nav"></div><script>document.getElementById("nav").innerHTML = \'<a href="/js/next">Next</a>\';</script></body>',
    ),
    '/js/next': html('<title>Next</title><h1>Rendered next</h1>'),
  });
  hooks = await startWebhookReceiver();
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port, hooks.port),
      workers: { threads: 1, concurrency: 4, hostConcurrency: 4, leaseMs: 5000, maxAttempts: 2, retryBaseMs: 100 },
      webhooks: { retryScale: 0.001, timeoutMs: 2000, allowHttp: true },
      browser: { poolSize: 2 },
    },
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
  await hooks?.close();
});

const get = async (path: string) => (await (await app.request(path)).json()) as Json;

async function waitForCrawl(id: string, timeoutMs = 90_000): Promise<Json> {
  const started = Date.now();
  for (;;) {
    const crawl = await get(`/v1/crawls/${id}`);
    if (crawl.status !== 'in_progress') return crawl;
    if (Date.now() - started > timeoutMs) throw new Error(`crawl ${id} still ${JSON.stringify(crawl)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('crawls on worker threads', () => {
  it('delivers crawl.completed once with the spec’s data, the same event id on every attempt', async () => {
    hooks.respondWith((_d, i) => (i === 0 ? 500 : 200));
    const res = await app.request('/v1/crawls', {
      method: 'POST',
      json: { start_url: site.url('/'), max_pages: 10, max_depth: 5, webhook: hooks.url },
    });
    expect(res.status).toBe(200);
    const created = (await res.json()) as Json;
    expect(created.webhook).toBe(hooks.url);
    const done = await waitForCrawl(created.id);
    expect(done).toMatchObject({ status: 'completed', stop_reason: 'exhausted', pages_count: 4, current_depth: 2 });
    const received = await hooks.waitFor(2);
    expect(received.map((d) => d.body.delivery_attempt)).toEqual(['1/5', '2/5']);
    expect(new Set(received.map((d) => d.body.id)).size).toBe(1);
    const body = received[1]!.body as Json;
    expect(body.object).toBe('event.crawl.completed');
    expect(body.data).toEqual({
      id: created.id,
      object: 'crawl',
      status: 'completed',
      start_url: site.url('/'),
      urls_count: 4,
      max_pages: 10,
      max_depth: 5,
      actual_max_depth: 2,
      start_epoch: new Date(created.start_date).getTime(),
      start_date: created.start_date,
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(hooks.received).toHaveLength(2);
  });

  it('renders pages in the browser when the scrape options need one, following links scripts made', async () => {
    const res = await app.request('/v1/crawls', {
      method: 'POST',
      json: { start_url: site.url('/js'), max_pages: 5, scrape_options: { formats: ['markdown', 'screenshot'] } },
    });
    expect(res.status).toBe(200);
    const created = (await res.json()) as Json;
    const done = await waitForCrawl(created.id);
    expect(done).toMatchObject({ status: 'completed', pages_count: 2 });
    const pages = (await get(`/v1/crawls/${created.id}/pages`)).pages as Json[];
    expect(pages.map((p) => p.url)).toEqual([site.url('/js'), site.url('/js/next')]);
    const content = await get(`/v1/retrieve?retrieve_id=${pages[1]!.retrieve_id}`);
    expect(content.markdown_content).toContain('# Rendered next');
    const shot = await fetch(content.screenshot_hosted_url as string);
    expect(shot.headers.get('content-type')).toBe('image/png');
  });

  it('renders for the API and for the crawl thread with one Chromium in the process', async () => {
    const scrape = await app.request('/v1/scrapes', {
      method: 'POST',
      json: { url_to_scrape: site.url('/b'), formats: ['screenshot'] },
    });
    expect(scrape.status).toBe(200);
    const res = await app.request('/v1/crawls', {
      method: 'POST',
      json: { start_url: site.url('/'), max_pages: 3, scrape_options: { formats: ['markdown', 'screenshot'] } },
    });
    const done = await waitForCrawl(((await res.json()) as Json).id);
    expect(done).toMatchObject({ status: 'completed', pages_count: 3 });
    // The crawl thread's pages went to the main thread's browser engine: no second Chromium.
    expect(browserProcessIds()).toHaveLength(1);
  });
});
