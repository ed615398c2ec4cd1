import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startExtractSite } from '../support/extract-site.js';
import { startFakeOpenAI, type FakeOpenAI, type RecordedCall } from '../support/fake-openai.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { testModelSettings } from '../support/test-model.js';

// llm_extract with a configured model on batch items and crawl pages: they run on the job
// threads, which build their own model provider from the same settings.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: TestApp;
let site: FixtureServer;
let fake: FakeOpenAI;

const SCHEMA = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

beforeAll(async () => {
  site = await startExtractSite();
  fake = await startFakeOpenAI();
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port),
      workers: { threads: 1, concurrency: 4, hostConcurrency: 4, leaseMs: 5000, maxAttempts: 1, retryBaseMs: 100 },
      model: testModelSettings(fake.baseUrl, {
        apiKey: null,
        timeoutMs: 5000,
        maxRetries: 0,
        contextTokens: 4096,
        maxOutputTokens: 256,
      }),
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
  await site?.close();
});

const get = async (path: string) => (await (await app.request(path)).json()) as Json;

async function waitFor(path: string, done: (body: Json) => boolean, timeoutMs = 60_000): Promise<Json> {
  const started = Date.now();
  for (;;) {
    const body = await get(path);
    if (done(body)) return body;
    if (Date.now() - started > timeoutMs) throw new Error(`${path} still ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The page URL a call's prompt names. */
function pageOf(call: RecordedCall): string {
  const user = call.body!.messages.find((m) => m.role === 'user')!;
  const text = typeof user.content === 'string' ? user.content : user.content.map((p) => p.text).join('');
  return /^Page URL: (\S+)/m.exec(text)![1]!;
}

describe('llm_extract on batches and crawls with a model', () => {
  it('asks the model once per batch item, each call with its own page only', async () => {
    fake.calls.length = 0;
    fake.reply({ json: { title: 'from the model' } }, { json: { title: 'from the model' } });
    const res = await app.request('/v1/batches', {
      method: 'POST',
      json: {
        items: [
          { custom_id: 'shoe', url: site.url('/product') },
          { custom_id: 'contact', url: site.url('/contact') },
        ],
        formats: ['json'],
        llm_extract: { schema: SCHEMA, prompt: 'the page title' },
      },
    });
    expect(res.status).toBe(200);
    const batch = (await res.json()) as Json;
    expect(batch.warning).toBeUndefined(); // a model fills it
    await waitFor(`/v1/batches/${batch.id}`, (b) => b.status !== 'in_progress');
    const items = (await get(`/v1/batches/${batch.id}/items?status=completed`)).items as Json[];
    expect(items.map((i) => i.custom_id).sort()).toEqual(['contact', 'shoe']);
    for (const item of items) {
      const content = await get(`/v1/retrieve?retrieve_id=${item.retrieve_id}`);
      expect(JSON.parse(content.json_content)).toEqual({ title: 'from the model' });
    }
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls.map(pageOf).sort()).toEqual([site.url('/contact'), site.url('/product')]);
    for (const call of fake.calls) {
      expect(call.headers.authorization).toBeUndefined(); // no MODEL_API_KEY: no header (local servers)
      expect(call.body!.response_format!.json_schema!.schema).toEqual(SCHEMA);
      const user = JSON.stringify(call.body!.messages);
      // A call carries its own page, never the other item's.
      if (pageOf(call).endsWith('/contact')) expect(user).not.toContain('4 mm drop');
      else expect(user).not.toContain('sales@ridge.example');
    }
  });

  it('fails an item whose model call fails, with model_error, and completes the batch', async () => {
    fake.calls.length = 0;
    fake.reply({ status: 500, message: 'model crashed' });
    const res = await app.request('/v1/batches', {
      method: 'POST',
      json: { items: [{ custom_id: 'shoe', url: site.url('/product') }], llm_extract: { schema: SCHEMA } },
    });
    const batch = (await res.json()) as Json;
    const done = await waitFor(`/v1/batches/${batch.id}`, (b) => b.status !== 'in_progress');
    expect(done.status).toBe('completed');
    const failed = (await get(`/v1/batches/${batch.id}/items?status=failed`)).items as Json[];
    expect(failed).toEqual([
      expect.objectContaining({ custom_id: 'shoe', error: expect.objectContaining({ code: 'model_error' }) }),
    ]);
  });

  it('fills json_content of every crawled page with the model', async () => {
    fake.calls.length = 0;
    fake.reply(...Array.from({ length: 3 }, () => ({ json: { title: 'crawled' } })));
    const res = await app.request('/v1/crawls', {
      method: 'POST',
      json: {
        start_url: site.url('/product'),
        max_pages: 3,
        scrape_options: { formats: ['json'], llm_extract: { schema: SCHEMA } },
      },
    });
    expect(res.status).toBe(200);
    const crawl = (await res.json()) as Json;
    await waitFor(`/v1/crawls/${crawl.id}`, (c) => c.status !== 'in_progress');
    const pages = (await get(`/v1/crawls/${crawl.id}/pages?limit=100`)).pages as Json[];
    expect(pages.map((p) => new URL(p.url as string).pathname).sort()).toEqual(['/', '/contact', '/product']);
    for (const page of pages) {
      const content = await get(`/v1/retrieve?retrieve_id=${page.retrieve_id}&formats=json`);
      expect(JSON.parse(content.json_content)).toEqual({ title: 'crawled' });
    }
    expect(fake.calls.map(pageOf).sort()).toEqual([site.url('/'), site.url('/contact'), site.url('/product')]);
  });
});
