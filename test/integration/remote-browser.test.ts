import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startRemoteChromium, type RemoteChromium } from '../support/remote-chromium.js';

// The service with a remote browser only (BROWSER_CDP_URL, no local Chromium), as a compose
// deployment beside browserless runs: scrapes, escalation and a crawl on a worker thread all
// render there, under production's outbound policy. The engine itself is held by
// test/contract/cdp-engine.test.ts.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const WORDS = 'The harbour market opens at dawn when the boats come back with the tide. '.repeat(4);

let app: TestApp;
let site: FixtureServer;
let chrome: RemoteChromium;

beforeAll(async () => {
  chrome = await startRemoteChromium();
  site = await startFixtureServer({
    '/spa': html(
      `<title>App</title><div id="root"></div><script>document.getElementById('root').innerHTML = '<h1>Rendered by script</h1><p>${WORDS}</p><a href="/next">Next</a>';</script>`,
    ),
    '/next': html(`<title>Next</title><h1>Next page</h1><p>${WORDS}</p>`),
  });
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port),
      browser: { enabled: false },
      cdp: { url: chrome.url, poolSize: 2, proxyListen: '127.0.0.1', proxyHost: null, connectTimeoutMs: 10_000 },
    },
  });
}, 180_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
  await chrome?.kill();
});

const get = async (path: string) => (await (await app.request(path)).json()) as Json;

describe('a deployment whose only browser is remote', () => {
  it('renders a page that needs scripts there, screenshot included', async () => {
    const res = await app.request('/v1/scrapes', {
      method: 'POST',
      json: { url_to_scrape: site.url('/spa'), formats: ['markdown', 'screenshot'] },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.result.markdown_content).toContain('# Rendered by script');
    expect(body.result.page_metadata.engine).toBe('cdp');
    const shot = await fetch(body.result.screenshot_hosted_url as string);
    expect(shot.headers.get('content-type')).toBe('image/png');
  });

  it('escalates a script-rendered page fetched by http to the remote browser', async () => {
    const res = await app.request('/v1/scrapes', { method: 'POST', json: { url_to_scrape: site.url('/spa') } });
    const body = (await res.json()) as Json;
    expect(body.result.markdown_content).toContain('# Rendered by script');
    expect(body.result.page_metadata.engine).toBe('cdp');
  });

  it('renders a crawl on its worker thread with the main thread’s remote browser', async () => {
    const res = await app.request('/v1/crawls', {
      method: 'POST',
      // A screenshot needs a browser: every page of the crawl is rendered.
      json: { start_url: site.url('/spa'), max_pages: 2, scrape_options: { formats: ['markdown', 'screenshot'] } },
    });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as Json).id as string;
    let crawl: Json = {};
    await expect
      .poll(async () => (crawl = await get(`/v1/crawls/${id}`)).status, { timeout: 120_000, interval: 200 })
      .not.toBe('in_progress');
    expect(crawl).toMatchObject({ status: 'completed', pages_count: 2 });
    const pages = (await get(`/v1/crawls/${id}/pages`)).pages as Json[];
    // The link exists only once the script ran: the remote browser rendered the start page.
    expect(pages.map((p) => p.url)).toEqual([site.url('/spa'), site.url('/next')]);
  });

  it('reports the remote browser ready and the local one off', async () => {
    const body = await get('/v1/status');
    const byId = Object.fromEntries((body.engines as Json[]).map((e) => [e.id, e]));
    expect(byId.cdp).toMatchObject({ available: true, state: { status: 'ready', detail: null } });
    expect(byId.playwright).toMatchObject({ available: false, reason: expect.stringMatching(/BROWSER_ENABLED=false/) });
  });
});
