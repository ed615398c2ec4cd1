import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpEngine } from '../../engines/http/http.engine.js';
import type { PlaywrightEngine } from '../../engines/playwright/playwright.engine.js';
import { createOutboundGuard } from '../../src/engine/outbound-guard.js';
import { createEngineRegistry } from '../../src/engine/registry.js';
import { detectScriptRequirement } from '../../src/engine/selection.js';
import { extractPdfText } from '../../src/pdf/pdf-text.js';
import { html, respond, type FixtureServer } from '../support/fixture-server.js';
import { createTestResolver } from './engine.contract.js';
import { FETCH_BUDGET_MS, fetchWith, makeEngine, pngSize, startJsSite } from './playwright-support.js';

const SITE_PDF = readFileSync(path.resolve(import.meta.dirname, '../fixtures/site/document.pdf'));

describe('playwright engine on a JavaScript-only site', () => {
  let site: FixtureServer;
  let engine: PlaywrightEngine;
  const dns = createTestResolver({ 'ads.doubleclick.net': [['127.0.0.1']] });

  beforeAll(async () => {
    site = await startJsSite({
      '/document.pdf': respond(SITE_PDF, 'application/pdf'),
      '/data.json': respond('{"city":"Zürich"}', 'application/json'),
      '/very-tall.html': html('<body style="margin:0"><div style="height:20000px">tall</div></body>'),
      '/go.html': html('<p>moving</p><script>location.replace("/reveal.html")</script>'),
      '/spa-route.html': html('<p id="r">home</p><script>history.pushState({}, "", "/spa/settings")</script>'),
      '/heavy.html': (_req, res) => {
        const port = site.port;
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>
          <style>@font-face { font-family: F; src: url(/fonts/f.woff2) format('woff2'); } p { font-family: F; }</style>
          <p>Heavy page</p><video id="v" src="/media/clip.mp4" autoplay muted></video>
          <script>
            // Media loads outside the load event: on a busy machine the page was done before the
            // video asked for its source. An image added once it has asked (or was refused) holds
            // the load event until then.
            const v = document.getElementById('v');
            const hold = () => { const i = new Image(); i.src = '/pixel.gif?' + Math.random(); document.body.append(i); };
            if (v.networkState === 2 || v.error) hold(); else { v.addEventListener('loadstart', hold, { once: true }); v.addEventListener('error', hold, { once: true }); }
          </script>
          <script src="http://ads.doubleclick.net:${port}/ads.js"></script>`);
      },
    });
    engine = makeEngine({}, { resolve: dns });
  });
  afterAll(async () => {
    await engine?.stop();
    await site?.close();
  });

  it('renders content that only scripts put in the page', async () => {
    const page = await fetchWith(engine, site.url('/app.html'));
    expect(page).toMatchObject({ engine: 'playwright', statusCode: 200, contentType: 'text/html' });
    expect(page.text).toContain('<h2>Boats return early</h2>');
    expect(page.text).toContain('The long-awaited pier welcomed its first ferry');
    expect(page.text).toContain('<title>Harbour News</title>');
    // The body stays the bytes the server sent; the text is the rendered document.
    expect(page.body.toString()).toContain('<div id="root"></div>');
    expect(site.hits('/api/articles.json')).toBeGreaterThan(0);
  });

  it('is where the registry sends a page the http engine could not render, without fetching it twice', async () => {
    const guard = createOutboundGuard({ allowPrivate: true, denyDomains: [] });
    const http = createHttpEngine({ guard, connectTimeoutMs: 2000, maxResponseBytes: 1 << 20 });
    const registry = createEngineRegistry([http, engine], { escalate: detectScriptRequirement });
    const before = site.hits('/app.html');
    const result = await registry.fetch(
      { url: site.url('/app.html'), timeoutMs: FETCH_BUDGET_MS },
      { signal: new AbortController().signal },
    );
    expect(result.snapshot.engine).toBe('playwright');
    expect(result.snapshot.text).toContain('Boats return early');
    expect(result.escalation).toEqual({ from: 'http', reason: 'page loads scripts but shows 0 characters of text' });
    expect(site.hits('/app.html') - before).toBe(1);
    await http.stop?.();
  });

  it('follows the page when a script sends it to another document, and records where it came from', async () => {
    const page = await fetchWith(engine, site.url('/go.html'));
    expect(page.finalUrl).toBe(site.url('/reveal.html'));
    expect(page.redirects).toEqual([site.url('/go.html')]);
    expect(page).toMatchObject({ statusCode: 200, contentType: 'text/html', charset: 'utf-8' });
    expect(page.text).toContain('Opening hours');
    expect(page.body.toString()).toContain('Opening hours');
    // A client-side route change is not a new document: status and bytes stay the fetched ones.
    const spa = await fetchWith(engine, site.url('/spa-route.html'));
    expect(spa.finalUrl).toBe(site.url('/spa/settings'));
    expect(spa.body.toString()).toContain('history.pushState');
  });

  it('clicks a button and waits for what it reveals', async () => {
    const page = await fetchWith(engine, site.url('/reveal.html'), {
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'wait_for', selector: '.hours' },
      ],
    });
    expect(page.text).toContain('Open daily from 7:00 to 19:00');
  });

  it('fills a form, submits it with a key press and captures the answer it fetched', async () => {
    const page = await fetchWith(engine, site.url('/form.html'), {
      actions: [
        { type: 'fill_input', selector: '#name', value: 'Ada Lovelace' },
        { type: 'press', key: 'Enter' },
        { type: 'hover', selector: '#hover-target' },
      ],
    });
    expect(page.text).toContain('<p id="greeting">Hello, Ada Lovelace!</p>');
    expect(page.text).toContain('Tooltip shown on hover');
  });

  it('scrolls an infinite list to its end', async () => {
    const scroll = { type: 'scroll', direction: 'down', amount: 5000 } as const;
    const page = await fetchWith(engine, site.url('/scroll.html'), {
      actions: [scroll, scroll, scroll, scroll, scroll],
    });
    for (const n of [1, 10, 11, 25, 40]) expect(page.text).toContain(`<div class="item">Item ${n}</div>`);
    expect(page.text).toContain('End of catalogue');
    expect(page.text).not.toContain('Item 41');
  });

  it('returns execute_js results in order, for expressions, function bodies and promises', async () => {
    const page = await fetchWith(engine, site.url('/app.html'), {
      actions: [
        { type: 'execute_js', script: 'document.querySelectorAll("article").length' },
        { type: 'execute_js', script: 'const h = document.querySelector("h1").textContent;\nreturn { heading: h };' },
        { type: 'execute_js', script: 'new Promise((resolve) => setTimeout(() => resolve("later"), 50))' },
        { type: 'execute_js', script: 'document.body.dataset.touched = "yes"' },
        { type: 'execute_js', script: 'void 0' },
      ],
    });
    expect(page.actionsOutput).toEqual([2, { heading: 'Harbour News' }, 'later', 'yes', null]);
    expect(page.text).toContain('data-touched="yes"');
  });

  it.each([
    [undefined, { width: 1024, height: 768, touch: false, mobile: false }],
    [
      { width: 414, height: 896, mobile: true },
      { width: 414, height: 896, touch: true, mobile: true },
    ],
    [
      { width: 1920, height: 1080, mobile: false },
      { width: 1920, height: 1080, touch: false, mobile: false },
    ],
    [
      { width: 800, height: 600, mobile: false },
      { width: 800, height: 600, touch: false, mobile: false },
    ],
  ])('emulates the screen %j', async (screen, expected) => {
    const page = await fetchWith(engine, site.url('/mobile.html'), screen ? { screen } : {});
    const probe = JSON.parse(/<p id="screen">([^<]*)<\/p>/.exec(page.text ?? '')![1]!.replace(/&quot;/g, '"'));
    expect(probe).toEqual({ ...expected, webdriver: false });
  });

  it('takes viewport and full-page PNG screenshots', async () => {
    const viewport = await fetchWith(engine, site.url('/tall.html'), { screenshot: { fullPage: false } });
    expect(pngSize(viewport.screenshot!)).toEqual({ width: 1024, height: 768 });
    const full = await fetchWith(engine, site.url('/tall.html'), {
      screenshot: { fullPage: true },
      screen: { width: 600, height: 400, mobile: false },
    });
    expect(pngSize(full.screenshot!)).toEqual({ width: 600, height: 3000 });
    expect(full.warnings).toBeUndefined();
  });

  it('cuts a full-page screenshot of an enormous page, and says so', async () => {
    const page = await fetchWith(engine, site.url('/very-tall.html'), { screenshot: { fullPage: true } });
    expect(pngSize(page.screenshot!)).toEqual({ width: 1024, height: 16_384 });
    expect(page.warnings).toEqual(['the full-page screenshot was cut at 16384 px (the page is 20000 px tall)']);
  });

  it('prints a rendered page to PDF', async () => {
    const page = await fetchWith(engine, site.url('/app.html'), { printPdf: true });
    expect(page.pdf!.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const extracted = await extractPdfText(page.pdf!);
    expect(extracted.text).toContain('Boats return early');
  });

  it('returns a PDF target as its own bytes, without rendering it', async () => {
    const page = await fetchWith(engine, site.url('/document.pdf'), {
      printPdf: true,
      screenshot: { fullPage: false },
    });
    expect(page.contentType).toBe('application/pdf');
    expect(page.pdf!.equals(SITE_PDF)).toBe(true);
    expect(page.screenshot).toBeUndefined();
    expect(page.warnings).toEqual(['the target is application/pdf: screenshot not applied']);
  });

  it('returns JSON as fetched unless a browser output is asked for', async () => {
    const plain = await fetchWith(engine, site.url('/data.json'));
    expect(plain.text).toBe('{"city":"Zürich"}');
    const shot = await fetchWith(engine, site.url('/data.json'), { screenshot: { fullPage: false } });
    expect(shot.text).toContain('Zürich');
    expect(pngSize(shot.screenshot)).toEqual({ width: 1024, height: 768 });
  });

  it('skips media, fonts and ad hosts by default, and loads them when asked', async () => {
    const count = () => ({
      media: site.hits('/media/clip.mp4'),
      font: site.hits('/fonts/f.woff2'),
      ads: site.hits('/ads.js'),
    });
    const before = count();
    await fetchWith(engine, site.url('/heavy.html'));
    expect(count()).toEqual(before);
    await fetchWith(engine, site.url('/heavy.html'), { loadAllResources: true });
    const after = count();
    expect(after.font).toBeGreaterThan(before.font);
    expect(after.media).toBeGreaterThan(before.media);
    expect(after.ads).toBeGreaterThan(before.ads);
  });
});
