import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineFallbackError } from '../../../src/engine/errors.js';
import { createEngineRegistry } from '../../../src/engine/registry.js';
import { detectScriptRequirement, requiredCapabilities, visibleTextLength } from '../../../src/engine/selection.js';
import {
  NO_CAPABILITIES,
  type EngineCapabilities,
  type PageRequest,
  type PageSnapshot,
  type ScrapeEngine,
} from '../../../src/engine/types.js';
import { errors } from '../../../src/errors.js';

const page = (html: string, statusCode = 200, contentType = 'text/html'): PageSnapshot => ({
  url: 'https://example.com/',
  finalUrl: 'https://example.com/',
  statusCode,
  headers: {},
  contentType,
  body: Buffer.from(html),
  text: html,
  engine: 'http',
  redirects: [],
});

const ARTICLE_TEXT = `<p>${'The harbour was quiet before dawn, and the fishing boats slipped out one by one. '.repeat(12)}</p>`;

describe('requiredCapabilities', () => {
  it('maps browser settings and proxies to capabilities', () => {
    expect(requiredCapabilities({})).toEqual([]);
    expect(requiredCapabilities({ browser: {} })).toEqual([]);
    expect(requiredCapabilities({ browser: { actions: [{ type: 'click', selector: '#a' }] } })).toEqual([
      'javascript',
      'actions',
    ]);
    expect(
      requiredCapabilities({
        browser: { screenshot: { fullPage: true }, printPdf: true, screen: { width: 414, height: 896, mobile: true } },
        proxy: { url: 'http://p:1' },
      }),
    ).toEqual(['javascript', 'screenshot', 'pdf', 'screen', 'proxy']);
    expect(requiredCapabilities({ browser: { waitBeforeMs: 500 } })).toEqual(['javascript']);
    expect(requiredCapabilities({ browser: { actions: [], screenshot: null, waitBeforeMs: 0 } })).toEqual([]);
  });
});

describe('detectScriptRequirement on realistic pages', () => {
  it.each([
    [
      'a create-react-app shell',
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React App</title>
       <script defer="defer" src="/static/js/main.4f3c2a.js"></script><link href="/static/css/main.css" rel="stylesheet"></head>
       <body><noscript>You need to enable JavaScript to run this app.</noscript><div id="root"></div></body></html>`,
      /page loads scripts but shows 0 characters of text/,
    ],
    [
      'a Vue app with a loading spinner',
      `<!DOCTYPE html><html><head><title>Dashboard</title></head><body>
       <div id="app"><div class="loader"><span class="sr-only">Loading…</span></div></div>
       <script type="module" src="/assets/index-7b1e.js"></script></body></html>`,
      /page loads scripts but shows 8 characters of text/,
    ],
    [
      'a client-rendered Next.js page (empty __next with a large data blob)',
      `<!DOCTYPE html><html><head><title>Shop</title><script src="/_next/static/chunks/main.js" defer></script></head>
       <body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
         props: { pageProps: { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Item ${i}` })) } },
       })}</script></body></html>`,
      /0 characters of text/,
    ],
    [
      'an Angular app whose header and footer have some text',
      `<html><head><title>Portal</title></head><body>
       <header><nav><a href="/">Home</a> <a href="/products">Products and services for customers</a> <a href="/about">About the company</a></nav></header>
       <app-root></app-root>
       <footer>© 2024 Example Corporation. All rights reserved. Terms of use. Privacy policy. Cookie settings.</footer>
       <script src="runtime.js" type="module"></script><script src="main.js" type="module"></script></body></html>`,
      /empty app root <app-root> and \d+ characters of text/,
    ],
    [
      'an empty #root on a page with a cookie notice',
      `<html><body><div class="cookie">We use cookies to improve your experience on our site. By continuing you agree to our cookie policy and terms.</div>
       <div id="root"><!-- app --></div><script src="/bundle.js"></script></body></html>`,
      /empty app root <div id="root">/,
    ],
    [
      'a noscript gate on a thin page without an app root',
      `<html><head><script src="/app.js"></script></head><body><h1>Example Bank online banking portal</h1>
       <p>Secure login for personal and business customers. Please have your credentials ready.</p>
       <noscript><div class="warn">JavaScript is required to use online banking. Please enable JavaScript in your browser settings.</div></noscript></body></html>`,
      /<noscript> asks for JavaScript/,
    ],
    [
      'a Cloudflare challenge (403)',
      `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="390">
       </head><body><div class="main-wrapper"><h1>example.com</h1><p>Verifying you are human. This may take a few seconds.</p></div>
       <script>(function(){window._cf_chl_opt={cvId: '3',cZone: "example.com",cType: 'managed'};}());</script></body></html>`,
      /^HTTP 403 anti-bot interstitial \(Cloudflare challenge\)$/,
      403,
    ],
    [
      'a DataDome block page',
      `<html><head><title>example.com</title></head><body><script>var dd={'rt':'c','cid':'AHrlqAAAAAMA','hsh':'2211F5','t':'fe','s':17434}</script>
       <script src="https://ct.captcha-delivery.com/c.js"></script></body></html>`,
      /HTTP 403 anti-bot interstitial \(DataDome\)/,
      403,
    ],
    [
      'a Sucuri JavaScript challenge served with 200',
      `<html><title>You are being redirected...</title><noscript>Javascript is required. Please enable javascript before you are allowed to see this page.</noscript>
       <script>var s={},u,c,U,r,i,l=0,a,e=eval,w=String.fromCharCode,sucuri_cloudproxy_js='',S='cz0iNSIuc3Vic3Ry';</script></html>`,
      /^anti-bot interstitial \(Sucuri firewall\)$/,
    ],
  ])('escalates %s', (_name, html, reason, status = 200) => {
    expect(detectScriptRequirement(page(html, status))).toMatch(reason);
  });

  it.each([
    [
      'a server-rendered article with scripts',
      `<html><head><script src="/analytics.js"></script></head><body><article>${ARTICLE_TEXT}</article></body></html>`,
    ],
    [
      'a server-rendered Next.js page',
      `<html><body><div id="__next"><main><h1>Pricing</h1>${ARTICLE_TEXT}</main></div>
       <script id="__NEXT_DATA__" type="application/json">{"props":{}}</script></body></html>`,
    ],
    ['a tiny page without scripts', '<p>home</p>'],
    ['an empty document', ''],
    [
      'a long page with a noscript banner',
      `<html><body><noscript>Please enable JavaScript to view the comments.</noscript><article>${ARTICLE_TEXT}</article><div id="comments"></div><script src="/c.js"></script></body></html>`,
    ],
    [
      'an article that mentions Cloudflare challenges in its text',
      `<html><head><title>How CDN challenges work</title></head><body><article><h1>Why you see "Just a moment..." pages</h1>${ARTICLE_TEXT}
       <p>Cloudflare shows a challenge page when its bot score is low.</p></article></body></html>`,
    ],
    [
      'an ordinary 404 page',
      '<html><head><title>Not found</title></head><body><h1>Page not found</h1><p>Sorry.</p></body></html>',
      404,
    ],
    [
      'an empty root that is not a mount point',
      `<html><body><div id="sidebar"></div><article>${ARTICLE_TEXT}</article></body></html>`,
    ],
  ])('leaves %s alone', (_name, html, status = 200) => {
    expect(detectScriptRequirement(page(html, status))).toBeNull();
  });

  it('looks at HTML only', () => {
    expect(detectScriptRequirement(page('<div id="root"></div><script></script>', 200, 'application/json'))).toBeNull();
    expect(
      detectScriptRequirement(
        page(
          '<html><body><div id="root"></div><script src="a.js"></script></body></html>',
          200,
          'application/xhtml+xml',
        ),
      ),
    ).not.toBeNull();
    expect(detectScriptRequirement({ ...page(''), text: undefined, contentType: 'application/pdf' })).toBeNull();
  });

  it('counts visible text without markup, scripts, styles, comments or the head', () => {
    expect(
      visibleTextLength(
        '<html><head><title>Long title here</title></head><body><p>Hi  &amp; <b>bye</b></p></body></html>',
      ),
    ).toBe('Hi _ bye'.length);
    expect(
      visibleTextLength('<body><script>var a = "lots of text";</script><style>p{}</style><!-- note --><p>x</p></body>'),
    ).toBe(1);
  });
});

/** The straightforward definition visibleTextLength's one-pass scanner must agree with. */
function referenceTextLength(html: string): number {
  const bodyStart = html.search(/<body\b/i);
  const body = bodyStart >= 0 ? html.slice(bodyStart) : html.replace(/<head\b[\s\S]*?<\/head>/i, '');
  return body
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|noscript|template|svg|iframe|object)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(?:#\d+|#x[\da-f]+|[a-z]+);/gi, '_')
    .replace(/\s+/g, ' ')
    .trim().length;
}

describe('visibleTextLength against its definition', () => {
  const dir = path.resolve(import.meta.dirname, '../../fixtures/pages');
  const pages = readdirSync(dir)
    .filter((f) => f.endsWith('.html'))
    .map((f) => [f, readFileSync(path.join(dir, f), 'latin1')] as const);
  const tricky = [
    '<body>a\u3000b\u2028c\u00a0\u00a0d</body>',
    '<body><p>x</p><script>never closed',
    '<body>a < b and c > d</body>',
    '<body><!-- open comment <p>text</p>',
    '<body><SCRIPT type=x>hidden</SCRIPT >shown &amp &amp; &#x41; &#65;</body>',
    '<p>no body tag</p><head><title>t</title></head>',
  ];

  it.each([...pages, ...tricky.map((html, i) => [`tricky ${i}`, html] as const)])(
    '%s: same length as the regex definition',
    (_, html) => {
      expect(visibleTextLength(html)).toBe(referenceTextLength(html));
    },
  );

  it('stops at a bound: exact below it, at least the bound above it', () => {
    for (const [, html] of pages) {
      const full = referenceTextLength(html);
      const bounded = visibleTextLength(html, 600);
      if (full < 600) expect(bounded).toBe(full);
      else expect(bounded).toBeGreaterThanOrEqual(600);
    }
  });
});

describe('registry escalation', () => {
  function engine(
    id: string,
    priority: number,
    capabilities: Partial<EngineCapabilities>,
    answer: (req: PageRequest) => PageSnapshot | Promise<PageSnapshot>,
  ): ScrapeEngine & { requests: PageRequest[] } {
    const requests: PageRequest[] = [];
    return {
      id,
      priority,
      capabilities: { ...NO_CAPABILITIES, ...capabilities },
      requests,
      async fetchPage(req) {
        requests.push(req);
        return { ...(await answer(req)), engine: id };
      },
    };
  }
  const shell = '<html><body><div id="root"></div><script src="/app.js"></script></body></html>';
  const rendered = `<html><body><div id="root">${ARTICLE_TEXT}</div></body></html>`;
  const req = { url: 'https://example.com/', timeoutMs: 10_000 };
  const signal = new AbortController().signal;
  const escalate = detectScriptRequirement;

  it('hands a script-only page to the browser engine with what was fetched and the remaining budget', async () => {
    const http = engine('http', 100, { proxy: true }, () => page(shell));
    const browser = engine('playwright', 10, { javascript: true, screenshot: true }, () => page(rendered));
    const result = await createEngineRegistry([http, browser], { escalate }).fetch(req, { signal });
    expect(result.snapshot.engine).toBe('playwright');
    expect(result.snapshot.text).toBe(rendered);
    expect(result.escalation).toEqual({ from: 'http', reason: 'page loads scripts but shows 0 characters of text' });
    expect(browser.requests[0]!.prefetched).toMatchObject({ engine: 'http', text: shell });
    expect(browser.requests[0]!.timeoutMs).toBeGreaterThan(9000);
    expect(browser.requests[0]!.timeoutMs).toBeLessThanOrEqual(10_000);
  });

  it('keeps a page that renders without scripts on the http engine', async () => {
    const http = engine('http', 100, {}, () => page(rendered));
    const browser = engine('playwright', 10, { javascript: true }, () => page('never'));
    const result = await createEngineRegistry([http, browser], { escalate }).fetch(req, { signal });
    expect(result.snapshot.engine).toBe('http');
    expect(result.escalation).toBeUndefined();
    expect(browser.requests).toEqual([]);
  });

  it('does not escalate without a policy, when told not to, or when an engine is forced', async () => {
    const http = engine('http', 100, {}, () => page(shell));
    const browser = engine('playwright', 10, { javascript: true }, () => page(rendered));
    expect((await createEngineRegistry([http, browser]).fetch(req, { signal })).snapshot.engine).toBe('http');
    const registry = createEngineRegistry([http, browser], { escalate });
    expect((await registry.fetch(req, { signal, escalate: false })).snapshot.engine).toBe('http');
    expect((await registry.fetch(req, { signal, engine: 'http' })).snapshot.engine).toBe('http');
    expect(browser.requests).toEqual([]);
  });

  it('returns the fetched page with a warning when no browser engine is enabled', async () => {
    const http = engine('http', 100, {}, () => page(shell));
    const { snapshot } = await createEngineRegistry([http], { escalate }).fetch(req, { signal });
    expect(snapshot.engine).toBe('http');
    expect(snapshot.warnings).toEqual([
      'the page seems to need JavaScript (page loads scripts but shows 0 characters of text), but no browser engine is enabled',
    ]);
  });

  it('returns the fetched page with a warning when rendering fails', async () => {
    const http = engine('http', 100, {}, () => page(shell));
    const browser = engine('playwright', 10, { javascript: true }, () => {
      throw errors.timeout('no complete response from example.com within 10000 ms');
    });
    const fallback = engine('other', 5, { javascript: true }, () => {
      throw new EngineFallbackError('browser crashed');
    });
    const { snapshot } = await createEngineRegistry([http, browser, fallback], { escalate }).fetch(req, { signal });
    expect(snapshot.engine).toBe('http');
    expect(snapshot.warnings?.[0]).toBe(
      'the page seems to need JavaScript (page loads scripts but shows 0 characters of text), but rendering it failed ' +
        '(playwright: no complete response from example.com within 10000 ms; other: browser crashed); returned as fetched by http',
    );
  });

  it('lets bugs in the browser engine surface', async () => {
    const http = engine('http', 100, {}, () => page(shell));
    const browser = engine('playwright', 10, { javascript: true }, () => {
      throw new TypeError('cannot read properties of undefined');
    });
    await expect(createEngineRegistry([http, browser], { escalate }).fetch(req, { signal })).rejects.toBeInstanceOf(
      TypeError,
    );
  });

  it('skips rendering when too little of the budget is left', async () => {
    const http = engine('http', 100, {}, async () => {
      await new Promise((resolve) => setTimeout(resolve, 60));
      return page(shell);
    });
    const browser = engine('playwright', 10, { javascript: true }, () => page(rendered));
    const registry = createEngineRegistry([http, browser], { escalate, minEscalationBudgetMs: 50 });
    const { snapshot } = await registry.fetch({ url: req.url, timeoutMs: 100 }, { signal });
    expect(snapshot.engine).toBe('http');
    expect(snapshot.warnings?.[0]).toMatch(/too little of the time budget was left/);
    expect(browser.requests).toEqual([]);
  });

  it('never escalates a page a browser engine produced', async () => {
    const browser = engine('playwright', 10, { javascript: true, screenshot: true }, () => page(shell));
    const result = await createEngineRegistry([browser], { escalate }).fetch(req, { needs: ['screenshot'], signal });
    expect(result.escalation).toBeUndefined();
    expect(browser.requests).toHaveLength(1);
  });
});

describe('unavailable engines', () => {
  const http: ScrapeEngine = {
    id: 'http',
    priority: 100,
    capabilities: { ...NO_CAPABILITIES, proxy: true },
    fetchPage: () => Promise.reject(new Error('not called')),
  };
  const unavailable = [
    {
      id: 'playwright',
      capabilities: ['javascript', 'actions', 'screenshot', 'pdf', 'screen', 'proxy'] as const,
      reason: 'Chromium was not found; install it (apt-get install chromium) or set CHROMIUM_PATH',
    },
  ].map((u) => ({ ...u, capabilities: [...u.capabilities] }));

  it('names the browser engine and how to enable it when a request needs a browser', async () => {
    const registry = createEngineRegistry([http], { unavailable });
    await expect(
      registry.fetch(
        { url: 'https://example.com/', timeoutMs: 1000 },
        { needs: ['javascript', 'screenshot'], signal: new AbortController().signal },
      ),
    ).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
      detail:
        'no enabled engine can do what this request needs (javascript, screenshot); engine playwright could, but it is not ' +
        'available here: Chromium was not found; install it (apt-get install chromium) or set CHROMIUM_PATH',
    });
    expect(() => registry.plan([], 'playwright')).toThrow(
      'engine: playwright is not available here: Chromium was not found; install it (apt-get install chromium) or set CHROMIUM_PATH',
    );
  });
});
