import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startExtractSite } from '../support/extract-site.js';
import { startFakeOpenAI, type FakeOpenAI, type RecordedCall } from '../support/fake-openai.js';
import type { FixtureServer } from '../support/fixture-server.js';
import { testModelSettings } from '../support/test-model.js';

// llm_extract with a configured model (a fake OpenAI-compatible server speaking the real wire
// protocol): what the model is sent, what the caller gets, and every way the model can fail.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: TestApp;
let site: FixtureServer;
let fake: FakeOpenAI;

const PRODUCT_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    currency: { type: ['string', 'null'] },
  },
  required: ['name', 'price'],
};

beforeAll(async () => {
  site = await startExtractSite();
  fake = await startFakeOpenAI();
  app = await startTestApp({
    config: {
      // The model server is on 127.0.0.1 too, and NOT in the allowed addresses: the configured
      // model host is let through the guard by itself.
      outbound: allowLocalPorts(site.port),
      model: testModelSettings(fake.baseUrl, {
        timeoutMs: 1500,
        maxRetries: 1,
        contextTokens: 1536,
        maxOutputTokens: 256,
      }),
    },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
  await site?.close();
});

beforeEach(() => {
  fake.calls.length = 0;
});

const scrape = (json: unknown) => app.request('/v1/scrapes', { method: 'POST', json });

async function storedCounts(): Promise<{ scrapes: number; pages: number }> {
  const conn = app.container.db.orm.em.getConnection();
  const [row] = await conn.execute<{ scrapes: number; pages: number }[]>(
    'select (select count(*)::int from scrapes) as scrapes, (select count(*)::int from pages) as pages',
  );
  return row!;
}

/** The user message of a recorded call, as text. */
function userText(call: RecordedCall, index = 0): string {
  const users = call.body!.messages.filter((m) => m.role === 'user');
  const content = users[index]!.content;
  return typeof content === 'string' ? content : content.map((part) => part.text).join('');
}

function systemText(call: RecordedCall): string {
  const system = call.body!.messages.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

describe('llm_extract with a configured model', () => {
  it('sends the schema and the page, and answers json_content as a JSON string served by json_hosted_url', async () => {
    fake.reply({ json: { name: 'Trail Runner 2', price: 129.95, currency: 'EUR' } });
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json', 'markdown'],
      llm_extract: { schema: PRODUCT_SCHEMA, prompt: 'The shoe on sale' },
      // What the official SDKs send for optional fields they were not given.
      parser: null,
      metadata: null,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(typeof body.result.json_content).toBe('string');
    expect(JSON.parse(body.result.json_content)).toEqual({ name: 'Trail Runner 2', price: 129.95, currency: 'EUR' });
    expect(body.result.markdown_content).toContain('Trail Runner 2');
    expect(body.warning).toBeUndefined();

    // What the model was sent: one call, the schema as structured output, the page's text.
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0]!;
    expect(call.headers.authorization).toBe('Bearer sk-test');
    expect(call.body!.model).toBe('fake-model');
    expect(call.body!.response_format).toEqual({
      type: 'json_schema',
      json_schema: expect.objectContaining({ name: 'extraction', schema: PRODUCT_SCHEMA }),
    });
    expect(systemText(call)).toMatch(/never invent a value/);
    const prompt = userText(call);
    expect(prompt).toContain(`Page URL: ${site.url('/product')}`);
    expect(prompt).toContain('Title: Trail Runner 2 | Ridge Outfitters');
    expect(prompt).toContain('Instructions: The shoe on sale');
    expect(prompt).toContain('Our lightest trail shoe, with a 4 mm drop');
    expect(prompt).toContain('Price: 129.95 EUR');
    // JSON-LD, which cleanup removes from the markdown, goes beside it: the SKU is only there.
    expect(prompt).toContain('Structured data on the page (JSON-LD and microdata, one item a line):\n{"@context"');
    expect(prompt).toContain('"sku":"TR2-42"');
    expect(body.result.markdown_content).not.toContain('TR2-42');

    // Hosted, retrievable, and the same on GET.
    const hosted = await fetch(body.result.json_hosted_url as string);
    expect(hosted.status).toBe(200);
    expect(await hosted.json()).toEqual({ name: 'Trail Runner 2', price: 129.95, currency: 'EUR' });
    const retrieved = (await (
      await app.request(`/v1/retrieve?retrieve_id=${body.retrieve_id}&formats=json`)
    ).json()) as Json;
    expect(retrieved.json_content).toBe(body.result.json_content);
    expect(retrieved.markdown_content).toBeUndefined();
    const again = (await (await app.request(`/v1/scrapes/${body.id}`)).json()) as Json;
    expect(again.result.json_content).toBe(body.result.json_content);
  });

  it('implies the json format when llm_extract is given without it', async () => {
    fake.reply({ json: { name: 'Trail Runner 2', price: 129.95, currency: null } });
    const res = await scrape({ url_to_scrape: site.url('/product'), llm_extract: { schema: PRODUCT_SCHEMA } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(JSON.parse(body.result.json_content)).toMatchObject({ price: 129.95 });
    expect(body.result.markdown_content).toContain('Trail Runner 2');
  });

  it('cuts a long page to the passages that matter for the schema, keeping its beginning', async () => {
    const schema = {
      type: 'object',
      properties: {
        shipping_cost: { type: 'number', description: 'shipping costs in EUR' },
        delivery_time: { type: 'string' },
      },
    };
    fake.reply({ json: { shipping_cost: 4.95, delivery_time: '2 to 3 working days' } });
    const res = await scrape({ url_to_scrape: site.url('/handbook'), formats: ['json'], llm_extract: { schema } });
    expect(res.status).toBe(200);
    expect(JSON.parse(((await res.json()) as Json).result.json_content)).toEqual({
      shipping_cost: 4.95,
      delivery_time: '2 to 3 working days',
    });
    const prompt = userText(fake.calls[0]!);
    expect(prompt).toContain('long page: the passages that matter most');
    expect(prompt).toContain('Everything about buying from Ridge Outfitters.'); // the beginning
    expect(prompt).toContain('Shipping costs 4.95 EUR per order; delivery time is 2 to 3 working days.');
    expect(prompt).toContain('[…]');
    expect(prompt).not.toContain('Structured data on the page'); // the handbook has none
    // The page is ~25 chapters long; only some made it, and the prompt fits the context.
    const chapters = new Set(prompt.match(/Chapter \d+/g) ?? []);
    expect(chapters.size).toBeLessThan(24);
    expect(prompt.length).toBeLessThan(1536 * 4);
  });

  it('accepts an example object as the schema and sends the JSON Schema it stands for', async () => {
    fake.reply({ json: { name: 'Trail Runner 2', price: 129.95 } });
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json'],
      llm_extract: { schema: { name: '', price: 0 } },
    });
    expect(res.status).toBe(200);
    expect(fake.calls[0]!.body!.response_format!.json_schema!.schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, price: { type: 'number' } },
    });
  });

  it('asks for a list schema inside an object (structured output wants one at the top) and answers the list', async () => {
    const list = {
      $defs: { Plan: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      type: 'array',
      items: { $ref: '#/$defs/Plan' },
    };
    fake.reply({ json: { items: [{ name: 'Trail Runner 2' }] } });
    const res = await scrape({ url_to_scrape: site.url('/product'), formats: ['json'], llm_extract: { schema: list } });
    expect(res.status).toBe(200);
    expect(JSON.parse(((await res.json()) as Json).result.json_content)).toEqual([{ name: 'Trail Runner 2' }]);
    expect(fake.calls[0]!.body!.response_format!.json_schema!.schema).toEqual({
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/$defs/Plan' } } },
      required: ['items'],
      additionalProperties: false,
      $defs: list.$defs,
    });
  });

  it('repairs a reply that breaks the schema once, telling the model what was wrong', async () => {
    fake.reply(
      { json: { name: 'Trail Runner 2', price: 'cheap' } },
      { json: { name: 'Trail Runner 2', price: 129.95 } },
    );
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json'],
      llm_extract: { schema: PRODUCT_SCHEMA },
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(((await res.json()) as Json).result.json_content)).toEqual({
      name: 'Trail Runner 2',
      price: 129.95,
    });
    expect(fake.calls).toHaveLength(2);
    const repair = fake.calls[1]!.body!.messages;
    expect(repair.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(userText(fake.calls[1]!, 1)).toContain('/price: must be number');
  });

  it('answers a 429 by retrying after the Retry-After the server gave', async () => {
    fake.reply({ status: 429, headers: { 'retry-after': '0' } }, { json: { name: 'Trail Runner 2', price: 129.95 } });
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json'],
      llm_extract: { schema: PRODUCT_SCHEMA },
    });
    expect(res.status).toBe(200);
    expect(fake.calls).toHaveLength(2);
  });

  const failures: [string, number, string, RegExp, () => void][] = [
    [
      'keeps answering 429',
      502,
      'model_error',
      /429/,
      () =>
        fake.reply({ status: 429, headers: { 'retry-after': '0' } }, { status: 429, headers: { 'retry-after': '0' } }),
    ],
    ['keeps answering 500', 502, 'model_error', /500/, () => fake.reply({ status: 500 }, { status: 500 })],
    ['answers garbage', 502, 'model_error', /./, () => fake.reply({ garbage: '<html>proxy error</html>' })],
    [
      'breaks the schema twice',
      502,
      'model_error',
      /did not match the requested schema, even after a repair round/,
      () => fake.reply({ json: { name: 1 } }, { json: { price: 'x' } }),
    ],
    [
      'answers text that is not JSON twice',
      502,
      'model_error',
      /not valid JSON/,
      () => fake.reply({ text: 'Sure!' }, { text: 'Here it is' }),
    ],
    ['never answers', 504, 'request_timeout', /./, () => fake.reply({ hang: true })],
    [
      'redirects to a cloud metadata address (the guard refuses it)',
      502,
      'model_error',
      /refused|not allowed|blocked|metadata/i,
      () => fake.reply({ redirect: 'http://169.254.169.254/latest/meta-data/' }),
    ],
  ];

  it.each(failures)('a model that %s: %i %s, and nothing stored', async (_, status, code, detail, script) => {
    const before = await storedCounts();
    script();
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json', 'markdown'],
      llm_extract: { schema: PRODUCT_SCHEMA },
    });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ object: 'error', code, status });
    expect(body.detail).toMatch(detail);
    expect(body.detail).not.toContain(fake.baseUrl); // the model server's address is not leaked
    expect(await storedCounts()).toEqual(before);
  });

  it('refuses a schema too large for the model context before fetching anything', async () => {
    const hits = site.requests.length;
    const properties = Object.fromEntries(
      Array.from({ length: 120 }, (_, i) => [
        `field_number_${i}`,
        { type: 'string', description: `the value number ${i} of the page` },
      ]),
    );
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json'],
      llm_extract: { schema: { type: 'object', properties } },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).detail).toMatch(/MODEL_CONTEXT_TOKENS/);
    expect(site.requests.length).toBe(hits);
    expect(fake.calls).toHaveLength(0);
  });

  it('works over GraphQL with the same service', async () => {
    fake.reply({ json: { name: 'Trail Runner 2', price: 129.95 } });
    const res = await app.request('/graphql', {
      method: 'POST',
      json: {
        query: `mutation($input: CreateScrapeInput!) { createScrape(input: $input) { warning result { jsonContent jsonHostedUrl } } }`,
        variables: {
          input: { urlToScrape: site.url('/product'), formats: ['json'], llmExtract: { schema: PRODUCT_SCHEMA } },
        },
      },
    });
    const body = (await res.json()) as Json;
    expect(body.errors).toBeUndefined();
    expect(JSON.parse(body.data.createScrape.result.jsonContent)).toEqual({ name: 'Trail Runner 2', price: 129.95 });
    expect(body.data.createScrape.result.jsonHostedUrl).toMatch(/^http/);
    expect(body.data.createScrape.warning).toBeNull();
  });
});
