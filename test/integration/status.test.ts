import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectEnvelope } from '../support/envelope.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.js';
import { testModelSettings } from '../support/test-model.js';

// GET /v1/status: what a dashboard shows of a deployment's engines, model and search providers.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('GET /v1/status with the defaults', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  }, 60_000);
  afterAll(async () => app?.close());

  it('lists every engine of the build with its kind, capabilities, priority and whether it runs here', async () => {
    const res = await app.request('/v1/status');
    expect(res.status).toBe(200);
    const body: Json = await res.json();
    expect(body.object).toBe('status');
    const engines = Object.fromEntries(body.engines.map((e: Json) => [e.id, e]));
    expect(engines.http).toEqual({
      id: 'http',
      object: 'engine',
      kind: 'scrape',
      description: expect.any(String),
      capabilities: ['proxy'],
      priority: 100,
      available: true,
      reason: null,
      state: { status: 'ready', detail: null },
    });
    expect(engines.playwright).toMatchObject({
      kind: 'scrape',
      capabilities: ['javascript', 'actions', 'screenshot', 'pdf', 'screen', 'proxy'],
      priority: 10,
      available: true,
      // Chromium starts on the first page that needs it.
      state: { status: 'idle', detail: null },
    });
    expect(engines.crawlee).toMatchObject({ kind: 'crawl', capabilities: [], available: true });
    expect(engines.cdp).toMatchObject({
      kind: 'scrape',
      priority: 20,
      available: false,
      reason: 'no remote browser is configured (set BROWSER_CDP_URL)',
      state: null,
    });
    const priorities = body.engines.map((e: Json) => e.priority);
    expect(priorities).toEqual([...priorities].sort((a: number, b: number) => b - a));
  });

  it('names the providers that are not configured, with how to configure them', async () => {
    const body: Json = await (await app.request('/v1/status')).json();
    expect(body.model_providers).toEqual([
      {
        id: 'openai-compatible',
        object: 'model_provider',
        description: expect.any(String),
        available: false,
        reason: 'MODEL_BASE_URL and MODEL_NAME are not set',
        default: false,
        model: null,
        context_tokens: null,
        max_output_tokens: null,
        structured_output: null,
      },
    ]);
    expect(body.search_providers).toEqual([
      {
        id: 'stored',
        object: 'search_provider',
        description: expect.any(String),
        available: true,
        reason: null,
        default: true,
      },
      {
        id: 'searxng',
        object: 'search_provider',
        description: 'Web search through SearXNG',
        available: false,
        reason: 'SEARXNG_URL is not set',
        default: false,
      },
    ]);
  });

  it('needs a key', async () => {
    await expectEnvelope(await app.request('/v1/status', { key: null }), 401);
  });
});

describe('GET /v1/status with a model, SearXNG and no browser', () => {
  let app: TestApp;
  let model: FakeOpenAI;
  let searxng: FakeSearxng;
  const apiKey = 'sk-status-test-secret-0123456789';
  beforeAll(async () => {
    model = await startFakeOpenAI();
    searxng = await startFakeSearxng(() => ({ results: [] }));
    app = await startTestApp({
      config: {
        model: testModelSettings(model.baseUrl, { apiKey, name: 'tiny-model', contextTokens: 4096 }),
        searxng: { url: `${searxng.url}?token=searx-secret`, timeoutMs: 2000 },
        browser: { enabled: false },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await model?.close();
    await searxng?.close();
  });

  it('shows the configured providers as defaults, and why the browser is off', async () => {
    const body: Json = await (await app.request('/v1/status')).json();
    expect(body.model_providers).toEqual([
      {
        id: 'openai-compatible',
        object: 'model_provider',
        description: expect.any(String),
        available: true,
        reason: null,
        default: true,
        model: 'tiny-model',
        context_tokens: 4096,
        max_output_tokens: 512,
        structured_output: 'json_schema',
      },
    ]);
    expect(body.search_providers.map((p: Json) => [p.id, p.available, p.default])).toEqual([
      ['searxng', true, true],
      ['stored', true, false],
    ]);
    const playwright = body.engines.find((e: Json) => e.id === 'playwright');
    expect(playwright).toMatchObject({ available: false, state: null });
    expect(playwright.reason).toMatch(/BROWSER_ENABLED=false/);
  });

  it('shows no secret and no address of what it uses', async () => {
    const text = await (await app.request('/v1/status')).text();
    for (const secret of [apiKey, 'searx-secret', model.baseUrl, searxng.url, String(model.port)]) {
      expect(text).not.toContain(secret);
    }
  });
});

describe('GET /v1/status with a remote browser that cannot be reached', () => {
  let app: TestApp;
  const url = 'ws://127.0.0.1:9/devtools/browser/x?token=status-secret-77';
  beforeAll(async () => {
    app = await startTestApp({
      config: {
        cdp: { url, poolSize: 2, proxyListen: '127.0.0.1', proxyHost: null, connectTimeoutMs: 1000 },
      },
    });
  }, 60_000);
  afterAll(async () => app?.close());

  it('shows the cdp engine failing, with why, and neither its token nor its address', async () => {
    // Connected to on start, in the background: the status follows what happened.
    let cdp: Json;
    await expect
      .poll(async () => {
        const body: Json = await (await app.request('/v1/status')).json();
        cdp = body.engines.find((e: Json) => e.id === 'cdp');
        return cdp.state?.status;
      })
      .toBe('failing');
    expect(cdp).toMatchObject({ kind: 'scrape', priority: 20, available: true, reason: null });
    expect(cdp.state.detail).toMatch(/^the remote browser could not be reached \(/);
    const text = await (await app.request('/v1/status')).text();
    expect(text).not.toContain('status-secret-77');
    expect(text).not.toContain('127.0.0.1');
  });
});
