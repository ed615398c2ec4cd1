import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateChromium } from '../../engines/playwright/chromium-path.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { html, respond, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

// Browser formats and engine selection through POST /v1/scrapes (the engine itself is held by
// test/contract/playwright-*.test.ts), and the 400 a service without a browser answers.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const WORDS = 'The harbour market opens at dawn when the boats come back with the tide. '.repeat(4);

const SPA = `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<script>document.getElementById('root').innerHTML = '<h1>Rendered by script</h1><p>${WORDS}</p>';</script></body></html>`;

const REVEAL = `<!doctype html><html><head><title>Reveal</title></head><body><h1>Catalogue</h1><p>${WORDS}</p>
<button id="more" onclick="document.getElementById('extra').hidden = false">More</button>
<section id="extra" hidden><h2>Hidden until clicked</h2><p>Mackerel and cod.</p></section></body></html>`;

let app: TestApp;
let site: FixtureServer;
let printed: Buffer;

/** A real PDF with a text layer, printed by Chromium (as documents on the web are). */
async function printReport(): Promise<Buffer> {
  const found = locateChromium(null);
  if (found.path === null) throw new Error(found.reason);
  const browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    await page.setContent(`<title>Harbour report</title><h1>Harbour report</h1><p>${WORDS}</p>
      <h2>Catch of the week</h2><p>Cod and mackerel.</p>`);
    return await page.pdf({ format: 'A4' });
  } finally {
    await browser.close();
  }
}

beforeAll(async () => {
  printed = await printReport();
  site = await startFixtureServer({
    '/spa': html(SPA),
    '/reveal': html(REVEAL),
    '/report.pdf': respond(printed, 'application/pdf'),
    '/damaged.pdf': respond(Buffer.from('%PDF-1.4\n this is not really a PDF'), 'application/pdf'),
  });
  app = await startTestApp({ config: { outbound: { allowPrivate: true } } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

const scrape = async (json: Json): Promise<{ status: number; body: Json }> => {
  const res = await app.request('/v1/scrapes', { method: 'POST', json });
  return { status: res.status, body: (await res.json()) as Json };
};

describe('POST /v1/scrapes with the browser engine', () => {
  it('escalates a page whose content is rendered by script to the browser and says so', async () => {
    const { status, body } = await scrape({ url_to_scrape: site.url('/spa') });
    expect(status).toBe(200);
    expect(body.result.markdown_content).toContain('# Rendered by script');
    expect(body.result.page_metadata).toMatchObject({ status_code: 200, title: 'App', engine: 'playwright' });
  });

  it('runs actions, then stores a PNG screenshot behind screenshot_hosted_url', async () => {
    const { status, body } = await scrape({
      url_to_scrape: site.url('/reveal'),
      formats: ['markdown', 'screenshot'],
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'execute_js', script: 'return document.title' },
      ],
      screen_size: { screen_type: 'mobile' },
    });
    expect(status).toBe(200);
    expect(body.result.markdown_content).toContain('## Hidden until clicked');
    expect(body.result.page_metadata.engine).toBe('playwright');
    const shot = await fetch(body.result.screenshot_hosted_url as string);
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await shot.arrayBuffer());
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(414); // the mobile preset's width
    // The same objects are reachable through retrieve.
    const res = await app.request(`/v1/retrieve?retrieve_id=${body.retrieve_id}`);
    expect(((await res.json()) as Json).screenshot_hosted_url).toMatch(/^http/);
  });

  it('prints an HTML page to PDF for raw_pdf', async () => {
    const { status, body } = await scrape({ url_to_scrape: site.url('/reveal'), formats: ['raw_pdf'] });
    expect(status).toBe(200);
    const pdf = await fetch(body.result.pdf_hosted_url as string);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
  });

  it('turns a PDF target into markdown and text, and hosts its original bytes for raw_pdf', async () => {
    const { status, body } = await scrape({
      url_to_scrape: site.url('/report.pdf'),
      formats: ['markdown', 'text', 'raw_pdf'],
    });
    expect(status).toBe(200);
    expect(body.result.markdown_content).toMatch(/^# Harbour report\n\nThe harbour market opens/);
    expect(body.result.markdown_content).toContain('## Catch of the week\n\nCod and mackerel.');
    expect(body.result.text_content).toContain('Catch of the week\n\nCod and mackerel.');
    expect(body.result.page_metadata).toMatchObject({ title: 'Harbour report', content_type: 'application/pdf' });
    const pdf = await fetch(body.result.pdf_hosted_url as string);
    expect(Buffer.from(await pdf.arrayBuffer()).equals(printed)).toBe(true);
  });

  it('reads a PDF target on the http engine too (no browser needed for its text)', async () => {
    const { status, body } = await scrape({ url_to_scrape: site.url('/report.pdf'), engine: 'http' });
    expect(status).toBe(200);
    expect(body.result.markdown_content).toContain('# Harbour report');
    expect(body.result.page_metadata.engine).toBe('http');
  });

  it('keeps a damaged PDF as a page with empty content and a warning saying why', async () => {
    const { status, body } = await scrape({ url_to_scrape: site.url('/damaged.pdf'), formats: ['markdown'] });
    expect(status).toBe(200);
    expect(body.result.markdown_content).toBe('');
    expect(body.warning).toMatch(/no text was extracted: .*PDF/);
  });

  it('names the failing action by index and reason', async () => {
    const { status, body } = await scrape({
      url_to_scrape: site.url('/reveal'),
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'wait_for', selector: '#nothing-here', timeout: 500 },
      ],
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(body.detail).toMatch(/actions\[1\]/);
    expect(body.detail).toMatch(/#nothing-here/);
  });
});

describe('a service without a browser engine', () => {
  let bare: TestApp;
  beforeAll(async () => {
    bare = await startTestApp({ config: { outbound: { allowPrivate: true }, browser: { enabled: false } } });
  }, 60_000);
  afterAll(async () => {
    await bare?.close();
  });

  it.each([
    ['screenshot', { formats: ['screenshot'] }],
    ['raw_pdf', { formats: ['raw_pdf'] }],
    ['actions', { actions: [{ type: 'click', selector: '#more' }] }],
  ])('answers %s with 400 saying how to enable the browser, storing nothing', async (_, options) => {
    const res = await bare.request('/v1/scrapes', {
      method: 'POST',
      json: { url_to_scrape: site.url('/reveal'), ...options },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Json;
    expect(body.code).toBe('validation_error');
    expect(body.detail).toMatch(/BROWSER_ENABLED/);
    const [row] = await bare.container.db.orm.em
      .getConnection()
      .execute<{ n: number }[]>('select count(*)::int as n from scrapes');
    expect(row!.n).toBe(0);
  });

  it('still scrapes plain pages, noting when one seems to need JavaScript', async () => {
    const res = await bare.request('/v1/scrapes', { method: 'POST', json: { url_to_scrape: site.url('/spa') } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.result.page_metadata.engine).toBe('http');
    expect(body.warning).toMatch(/needs? JavaScript.*no browser engine is enabled/);
  });
});
