import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaywrightEngine } from '../../engines/playwright/playwright.engine.js';
import { browserProcessIds } from '../../engines/playwright/process-tree.js';
import { EngineFallbackError } from '../../src/engine/errors.js';
import type { PageAction, PageRequest } from '../../src/engine/types.js';
import { AppError } from '../../src/errors.js';
import { html, respond, type FixtureServer } from '../support/fixture-server.js';
import { expectFailure } from './engine.contract.js';
import { fetchWith, makeEngine, startJsSite } from './playwright-support.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Bad input and hostile pages: each must fail cleanly, and the engine must keep serving. */
describe('playwright engine under bad input and hostile pages', () => {
  let site: FixtureServer;
  let engine: PlaywrightEngine;
  const healthy = async () => {
    const page = await fetchWith(engine, site.url('/reveal.html'));
    expect(page.text).toContain('Opening hours');
  };
  const invalid = async (browser: PageRequest['browser'], detail: string | RegExp) => {
    const started = Date.now();
    const err = await expectFailure(fetchWith(engine, site.url('/reveal.html'), browser));
    expect(err).toMatchObject({ status: 400, code: 'validation_error' });
    expect(err.detail).toMatch(detail);
    return Date.now() - started;
  };

  beforeAll(async () => {
    site = await startJsSite({
      '/popups.html': html(`<title>Popups</title><p id="main">The main page</p>
        <a id="open" href="/popup-target.html" target="_blank">open</a>
        <script>window.open('/popup-target.html'); window.open('about:blank');</script>`),
      '/popup-target.html': html('<p>popup</p>'),
      '/downloads.html': html(`<p>Files</p><a id="get" href="/file.zip" download>download</a>
        <script>const f = document.createElement('iframe'); f.src = '/attachment'; document.body.append(f);</script>`),
      '/file.zip': respond(Buffer.alloc(2048, 1), 'application/zip'),
      '/attachment': respond('<p>attached</p>', 'text/html', {
        headers: { 'content-disposition': 'attachment; x.html' },
      }),
      '/cookies.html': html(`<p id="state"></p><script>
        document.getElementById('state').textContent = JSON.stringify({ cookie: document.cookie, stored: localStorage.getItem('k') });
        document.cookie = 'team=a; path=/'; localStorage.setItem('k', 'secret-of-team-a');</script>`),
    });
    engine = makeEngine();
  });
  afterAll(async () => {
    await engine?.stop();
    await site?.close();
  });

  describe('refuses bad browser settings before opening a page', () => {
    it.each([
      [{ actions: [{ type: 'teleport', selector: '#x' }] }, /^actions\[0\]\.type: unknown action type "teleport"/],
      [
        { actions: [{ type: 'wait', milliseconds: 10 }, { type: 'click' }] },
        'actions[1].selector: is required for click',
      ],
      [{ actions: [{ type: 'fill_input', selector: '#name' }] }, 'actions[0].value: is required for fill_input'],
      [{ actions: [{ type: 'wait' }] }, 'actions[0].milliseconds: is required for wait'],
      [{ actions: [{ type: 'execute_js', script: '   ' }] }, 'actions[0].script: must not be empty'],
      [
        { actions: [{ type: 'scroll', direction: 'sideways' }] },
        'actions[0].direction: must be one of up, down, left, right',
      ],
      [
        { actions: [{ type: 'wait', milliseconds: -5 }] },
        /actions\[0\]\.milliseconds: must be an integer between 0 and 60000/,
      ],
      [{ actions: ['click'] }, 'actions[0]: must be an object'],
      [
        { actions: Array.from({ length: 51 }, () => ({ type: 'wait', milliseconds: 1 })) },
        'actions: at most 50 actions are allowed (got 51)',
      ],
      [
        {
          actions: [
            { type: 'wait', milliseconds: 40_000 },
            { type: 'wait_for', selector: '#x', timeout: 20_001 },
          ],
        },
        'actions: waits add up to 60001 ms; at most 60000 ms of waiting is allowed',
      ],
      [{ waitBeforeMs: 30_001 }, /^wait_before_scraping: must be an integer between 0 and 30000/],
      [
        { screen: { width: 0, height: 768, mobile: false } },
        /^screen_size\.screen_width: must be an integer between 100 and 3840 \(got 0\)/,
      ],
      [{ screen: { width: 100_000, height: 768, mobile: false } }, /screen_width: .* \(got 100000\)/],
      [{ screen: { width: 800, height: 0.5, mobile: false } }, /^screen_size\.screen_height: must be an integer/],
    ])('%j', async (browser, detail) => {
      const ms = await invalid(browser as PageRequest['browser'], detail);
      expect(ms).toBeLessThan(500);
    });
  });

  it('names the action whose selector matches nothing, after its timeout', async () => {
    const started = Date.now();
    await invalid(
      {
        actions: [
          { type: 'wait', milliseconds: 1 },
          { type: 'click', selector: '#buy' },
        ],
      },
      'actions[1] (click "#buy"): no element matches within 5000 ms',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
    await invalid(
      { actions: [{ type: 'wait_for', selector: '.never', timeout: 300 }] },
      'actions[0] (wait_for ".never"): no element matches within 300 ms',
    );
    await invalid(
      { actions: [{ type: 'fill_input', selector: 'h1', value: 'x' }] },
      /^actions\[0\] \(fill_input "h1"\): .*not an <input>/,
    );
    await invalid(
      { actions: [{ type: 'click', selector: '##nope' }] },
      /^actions\[0\] \(click "##nope"\): invalid selector/,
    );
    await invalid(
      { actions: [{ type: 'press', key: 'NoSuchKey' }] },
      /^actions\[0\] \(press "NoSuchKey"\): Unknown key/,
    );
    await healthy();
  });

  it('reports a script that throws, naming the action', async () => {
    const actions: PageAction[] = [
      { type: 'execute_js', script: '1 + 1' },
      { type: 'execute_js', script: 'throw new TypeError("boom")' },
    ];
    await invalid({ actions }, 'actions[1] (execute_js): the script threw TypeError: boom');
    await invalid(
      { actions: [{ type: 'execute_js', script: 'return {' }] },
      /^actions\[0\] \(execute_js\): the script threw SyntaxError/,
    );
  });

  it('stops a script that never ends at the time budget, and keeps serving', async () => {
    const started = Date.now();
    const err = await expectFailure(
      engine.fetchPage(
        {
          url: site.url('/reveal.html'),
          timeoutMs: 3000,
          browser: { actions: [{ type: 'execute_js', script: 'while (true) {}' }] },
        },
        new AbortController().signal,
      ),
    );
    expect(err).toMatchObject({ status: 504, code: 'request_timeout' });
    expect(err.detail).toBe('actions[0] (execute_js) did not finish within 3000 ms');
    expect(Date.now() - started).toBeLessThan(6000);
    await healthy();
    expect(engine.stats().active).toBe(0);
  });

  it('answers 502 when a page crashes its renderer, and the browser keeps serving', async () => {
    const launches = engine.stats().launches;
    const err = await expectFailure(
      fetchWith(engine, site.url('/reveal.html'), {
        actions: [{ type: 'execute_js', script: 'const a = []; for (;;) a.push(new Array(1e6).fill(1.5));' }],
      }),
    );
    expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
    expect(err.detail).toMatch(
      /^the page crashed the browser renderer \(actions\[0\] \(execute_js\)\); a page may use at most 256 MB/,
    );
    await healthy();
    expect(engine.stats().launches).toBe(launches);
  });

  it('closes popups and ignores downloads', async () => {
    const page = await fetchWith(engine, site.url('/popups.html'), { actions: [{ type: 'click', selector: '#open' }] });
    expect(page.finalUrl).toBe(site.url('/popups.html'));
    expect(page.text).toContain('The main page');
    const files = await fetchWith(engine, site.url('/downloads.html'), {
      actions: [{ type: 'click', selector: '#get' }],
    });
    expect(files.text).toContain('<p>Files</p>');
    expect(files.finalUrl).toBe(site.url('/downloads.html'));
    await healthy();
  });

  it('returns a download target as its bytes, and renders HTML sent as an attachment', async () => {
    const zip = await fetchWith(engine, site.url('/file.zip'));
    expect(zip).toMatchObject({ contentType: 'application/zip', engine: 'playwright' });
    expect(zip.body.length).toBe(2048);
    const attachment = await fetchWith(engine, site.url('/attachment'));
    expect(attachment.text).toContain('<p>attached</p>');
  });

  it('gives every scrape a fresh context: no cookies or storage from the one before', async () => {
    await fetchWith(engine, site.url('/cookies.html'));
    const second = await fetchWith(engine, site.url('/cookies.html'));
    expect(second.text).toContain('{"cookie":"","stored":null}');
    const sent = site.requests.filter((r) => r.path === '/cookies.html').map((r) => r.headers.cookie);
    expect(sent).toEqual([undefined, undefined]);
  });

  it('survives its browser being killed: that page falls back, the next one gets a new browser', async () => {
    await healthy();
    const pid = engine.stats().pid!;
    expect(alive(pid)).toBe(true);
    // Killed inside an action: the first one fires a request the site sees while the second one
    // waits, so the kill lands in that wait however slowly the page loaded.
    const pending = fetchWith(engine, site.url('/reveal.html'), {
      actions: [
        { type: 'execute_js', script: "void fetch('/in-action'); 'sent'" },
        { type: 'wait', milliseconds: 5000 },
      ],
    });
    while (site.hits('/in-action') === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    process.kill(pid, 'SIGKILL');
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineFallbackError);
    expect((err as EngineFallbackError).reason).toMatch(
      /^the browser exited \(actions\[1\] \(wait 5000 ms\)\); it is restarted/,
    );
    const launches = engine.stats().launches;
    await healthy();
    expect(engine.stats().launches).toBe(launches + 1);
    expect(engine.stats().pid).not.toBe(pid);
  });
});

describe('playwright browser pool', () => {
  let site: FixtureServer;
  beforeAll(async () => {
    site = await startJsSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it('restarts the browser after N pages, closing the old one once its pages are done', async () => {
    const engine = makeEngine({}, { restartAfterPages: 2 });
    try {
      await fetchWith(engine, site.url('/reveal.html'));
      const first = engine.stats().pid!;
      await fetchWith(engine, site.url('/reveal.html'));
      await fetchWith(engine, site.url('/reveal.html'));
      expect(engine.stats().launches).toBe(2);
      expect(engine.stats().pid).not.toBe(first);
      await expect.poll(() => alive(first), { timeout: 5000 }).toBe(false);
    } finally {
      await engine.stop();
    }
  });

  it('renders at most poolSize pages at once; a waiter out of time gets a 504', async () => {
    const engine = makeEngine({}, { poolSize: 1 });
    try {
      const slow = fetchWith(engine, site.url('/reveal.html'), { actions: [{ type: 'wait', milliseconds: 1500 }] });
      await expect.poll(() => engine.stats().active, { timeout: 10_000 }).toBe(1);
      const queued = fetchWith(engine, site.url('/reveal.html'));
      await expect.poll(() => engine.stats().waiting).toBe(1);
      const impatient = await expectFailure(
        engine.fetchPage({ url: site.url('/reveal.html'), timeoutMs: 400 }, new AbortController().signal),
      );
      expect(impatient).toMatchObject({ status: 504 });
      expect(impatient.detail).toBe('waiting for a free browser page did not finish within 400 ms');
      await expect(slow).resolves.toMatchObject({ statusCode: 200 });
      await expect(queued).resolves.toMatchObject({ statusCode: 200 });
      expect(engine.stats()).toMatchObject({ active: 0, waiting: 0 });
    } finally {
      await engine.stop();
    }
  });

  it('stops cleanly: the browser process is gone and later fetches are refused', async () => {
    const engine = makeEngine();
    await fetchWith(engine, site.url('/reveal.html'));
    const pid = engine.stats().pid!;
    expect(browserProcessIds()).toContain(pid);
    await engine.stop();
    expect(alive(pid)).toBe(false);
    const err = await fetchWith(engine, site.url('/reveal.html')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineFallbackError);
    expect(err).not.toBeInstanceOf(AppError);
  });
});
