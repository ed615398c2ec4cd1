import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARSERS } from '../../src/plugins.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startExtractSite } from '../support/extract-site.js';
import { respond, type FixtureServer } from '../support/fixture-server.js';

// json_content on a service with no model configured (a fresh machine's default): llm_extract
// filled by the deterministic extractor with a warning, parsers, GET /v1/parsers, every bad
// input, and the same on batches and crawls.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let app: TestApp;
let site: FixtureServer;

beforeAll(async () => {
  site = await startExtractSite();
  site.route(
    '/logo.png',
    respond(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), 'image/png'),
  );
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port),
      workers: { threads: 1, concurrency: 4, hostConcurrency: 4, leaseMs: 5000, maxAttempts: 2, retryBaseMs: 100 },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

const scrape = (json: unknown) => app.request('/v1/scrapes', { method: 'POST', json });
const get = async (path: string) => (await (await app.request(path)).json()) as Json;

async function storedCounts(): Promise<Record<string, number>> {
  const conn = app.container.db.orm.em.getConnection();
  const [row] = await conn.execute<Record<string, number>[]>(
    `select (select count(*)::int from scrapes) as scrapes, (select count(*)::int from pages) as pages,
            (select count(*)::int from batches) as batches, (select count(*)::int from crawls) as crawls`,
  );
  return row!;
}

const SHOE_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    currency: { type: 'string' },
    sku: { type: 'string' },
    warranty_years: { type: 'integer' },
  },
};

describe('llm_extract without a model', () => {
  it('fills the schema from the page by rules, never inventing a value, and says which keys came from where', async () => {
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json'],
      llm_extract: { schema: SHOE_SCHEMA, prompt: null },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(JSON.parse(body.result.json_content)).toEqual({
      name: 'Trail Runner 2',
      price: 129.95,
      currency: 'EUR',
      sku: 'TR2-42',
      warranty_years: null,
    });
    expect(body.warning).toMatch(/^json_content was filled without a model \(no model is configured\)/);
    expect(body.warning).toContain('4 of 5 keys found');
    expect(body.warning).toContain('price (json-ld:Product.offers.price)');
    expect(body.warning).toMatch(/left empty: warranty_years\.$/);
    const hosted = await fetch(body.result.json_hosted_url as string);
    expect(await hosted.json()).toEqual(JSON.parse(body.result.json_content));
    const again = await get(`/v1/scrapes/${body.id}`);
    expect(again.warning).toBe(body.warning);
    expect(again.result.json_content).toBe(body.result.json_content);
  });

  it('reads an example object as the schema', async () => {
    const res = await scrape({
      url_to_scrape: site.url('/contact'),
      formats: ['json', 'markdown'],
      llm_extract: { schema: { phone: '', email: '' } },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(JSON.parse(body.result.json_content)).toEqual({ phone: '+49 30 1234567', email: 'help@ridge.example' });
    expect(body.result.markdown_content).toContain('Contact Ridge Outfitters');
  });

  it('fills from a page that is not HTML through its label lines', async () => {
    site.route('/notes.txt', respond('Product: Trail Runner 2\nPrice: 129.95 EUR\n', 'text/plain'));
    const res = await scrape({
      url_to_scrape: site.url('/notes.txt'),
      formats: ['json'],
      llm_extract: { schema: { type: 'object', properties: { price: { type: 'number' }, color: { type: 'string' } } } },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(JSON.parse(body.result.json_content)).toEqual({ price: 129.95, color: null });
  });

  it('fills a list schema (the top level an array) from a table', async () => {
    const res = await scrape({
      url_to_scrape: site.url('/plans'),
      formats: ['json'],
      llm_extract: {
        schema: {
          type: 'array',
          items: { type: 'object', properties: { plan: { type: 'string' }, price: { type: 'number' } } },
        },
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(JSON.parse(body.result.json_content)).toEqual([
      { plan: 'Starter', price: 0 },
      { plan: 'Team', price: 12 },
      { plan: 'Enterprise', price: null },
    ]);
    expect(body.warning).toMatch(/1 of 1 keys found: the list \(table/);
  });

  it('leaves every key empty on a page that has none of them, and says so', async () => {
    const res = await scrape({
      url_to_scrape: site.url('/logo.png'),
      formats: ['json'],
      llm_extract: { schema: SHOE_SCHEMA },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(JSON.parse(body.result.json_content)).toEqual({
      name: null,
      price: null,
      currency: null,
      sku: null,
      warranty_years: null,
    });
    expect(body.warning).toContain('none of the 5 requested keys was found on the page');
  });

  it('works over GraphQL, with the warning', async () => {
    const res = await app.request('/graphql', {
      method: 'POST',
      json: {
        query: `mutation($input: CreateScrapeInput!) { createScrape(input: $input) { retrieveId warning result { jsonContent } } }`,
        variables: {
          input: { urlToScrape: site.url('/product'), formats: ['json'], llmExtract: { schema: SHOE_SCHEMA } },
        },
      },
    });
    const body = (await res.json()) as Json;
    expect(body.errors).toBeUndefined();
    expect(JSON.parse(body.data.createScrape.result.jsonContent)).toMatchObject({
      name: 'Trail Runner 2',
      sku: 'TR2-42',
    });
    expect(body.data.createScrape.warning).toContain('without a model');
    const retrieved = await app.request('/graphql', {
      method: 'POST',
      json: {
        query: `query($id: ID!) { retrieve(retrieveId: $id, formats: ["json"]) { jsonContent jsonHostedUrl } }`,
        variables: { id: body.data.createScrape.retrieveId },
      },
    });
    const page = ((await retrieved.json()) as Json).data.retrieve;
    expect(page.jsonContent).toBe(body.data.createScrape.result.jsonContent);
    expect(page.jsonHostedUrl).toMatch(/^http/);
  });
});

describe('parsers', () => {
  it('GET /v1/parsers lists every parser with its output JSON Schema', async () => {
    // Content-Type on a bodiless GET, as both official SDKs send it.
    const res = await app.request('/v1/parsers', { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.object).toBe('list');
    expect(body.data.map((p: Json) => p.id)).toEqual(PARSERS.map((p) => p.id));
    expect(body.data.map((p: Json) => p.id)).toEqual(
      expect.arrayContaining([
        '@olostep/extract-emails',
        '@olostep/extract-socials',
        '@olostep/extract-images',
        '@olostep/extract-calendars',
        'structured-data',
        'tables',
        'contacts',
      ]),
    );
    for (const parser of body.data as Json[]) {
      expect(parser).toMatchObject({ object: 'parser', description: expect.any(String) });
      expect(parser.output_schema.type).toBe('object');
    }
    expect((await app.request('/v1/parsers', { key: null })).status).toBe(401);
  });

  it('lists them over GraphQL', async () => {
    const res = await app.request('/graphql', {
      method: 'POST',
      json: { query: '{ parsers { id description outputSchema } }' },
    });
    const body = (await res.json()) as Json;
    expect(body.data.parsers).toHaveLength(PARSERS.length);
    expect(body.data.parsers[0]).toMatchObject({ id: '@olostep/extract-calendars', outputSchema: { type: 'object' } });
  });

  it('runs a parser: json_content is its output as a JSON string, hosted and retrievable', async () => {
    const res = await scrape({
      url_to_scrape: site.url('/contact'),
      formats: ['json'],
      parser: { id: '@olostep/extract-emails' },
      llm_extract: null,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(JSON.parse(body.result.json_content)).toEqual({ emails: ['help@ridge.example', 'sales@ridge.example'] });
    expect(body.warning).toBeUndefined();
    const hosted = await fetch(body.result.json_hosted_url as string);
    expect(hosted.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await hosted.json()).toEqual({ emails: ['help@ridge.example', 'sales@ridge.example'] });
    const retrieved = await get(`/v1/retrieve?retrieve_id=${body.retrieve_id}`);
    expect(retrieved.json_content).toBe(body.result.json_content);
  });

  it('runs the structured-data parser over JSON-LD', async () => {
    const res = await scrape({
      url_to_scrape: site.url('/product'),
      formats: ['json'],
      parser: { id: 'structured-data' },
    });
    expect(res.status).toBe(200);
    const parsed = JSON.parse(((await res.json()) as Json).result.json_content);
    expect(JSON.stringify(parsed)).toContain('TR2-42');
  });

  it.each([
    ['an HTML-only parser on a JSON document', '/data.json', 'tables', /application\/json is not an HTML page/],
    ['a text parser on an image', '/logo.png', '@olostep/extract-emails', /image\/png/],
  ])('answers 422 invalid_parser_input for %s, storing nothing', async (_, path, id, detail) => {
    const before = await storedCounts();
    const res = await scrape({ url_to_scrape: site.url(path), formats: ['json'], parser: { id } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ object: 'error', code: 'invalid_parser_input', status: 422 });
    expect(body.detail).toMatch(detail);
    expect(await storedCounts()).toEqual(before);
  });
});

describe('bad input', () => {
  const url = () => site.url('/product');
  const cases: [string, () => unknown, number, string, RegExp][] = [
    [
      'llm_extract without schema',
      () => ({ url_to_scrape: url(), formats: ['json'], llm_extract: { prompt: 'x' } }),
      400,
      'validation_error',
      /^llm_extract\.schema: is required/,
    ],
    [
      'llm_extract with a null schema',
      () => ({ url_to_scrape: url(), llm_extract: { schema: null } }),
      400,
      'validation_error',
      /^llm_extract\.schema/,
    ],
    [
      'a schema that is a string',
      () => ({ url_to_scrape: url(), llm_extract: { schema: 'name, price' } }),
      400,
      'validation_error',
      /^llm_extract\.schema/,
    ],
    [
      'a string schema',
      () => ({ url_to_scrape: url(), llm_extract: { schema: { type: 'string' } } }),
      400,
      'validation_error',
      /^llm_extract\.schema: must be an object schema/,
    ],
    [
      'a number schema',
      () => ({ url_to_scrape: url(), llm_extract: { schema: { type: 'number' } } }),
      400,
      'validation_error',
      /must be an object schema \(.*\) or an array schema, not a schema of type number/,
    ],
    [
      'an empty schema',
      () => ({ url_to_scrape: url(), llm_extract: { schema: {} } }),
      400,
      'validation_error',
      /^llm_extract\.schema/,
    ],
    [
      'an unresolvable $ref',
      () => ({ url_to_scrape: url(), llm_extract: { schema: { $ref: '#/$defs/Nope' } } }),
      400,
      'validation_error',
      /does not resolve/,
    ],
    [
      'a 1 MB schema',
      () => ({
        url_to_scrape: url(),
        llm_extract: {
          schema: { type: 'object', properties: { name: { type: 'string', description: 'x'.repeat(1024 * 1024) } } },
        },
      }),
      400,
      'validation_error',
      /^llm_extract\.schema: is \d+ bytes; at most 100000 bytes/,
    ],
    [
      'json with neither parser nor llm_extract',
      () => ({ url_to_scrape: url(), formats: ['json'] }),
      400,
      'validation_error',
      /^formats: "json" needs a parser/,
    ],
    [
      'parser and llm_extract together',
      () => ({ url_to_scrape: url(), parser: { id: 'tables' }, llm_extract: { schema: SHOE_SCHEMA } }),
      400,
      'validation_error',
      /either parser or llm_extract/,
    ],
    [
      'an unknown parser',
      () => ({ url_to_scrape: url(), formats: ['json'], parser: { id: '@olostep/nope' } }),
      404,
      'parser_not_found',
      /"@olostep\/nope" does not exist \(available: @olostep\/extract-calendars, @olostep\/extract-emails/,
    ],
    ['a parser without id', () => ({ url_to_scrape: url(), parser: {} }), 400, 'validation_error', /^parser\.id/],
    [
      'a prompt that is not a string',
      () => ({ url_to_scrape: url(), llm_extract: { schema: SHOE_SCHEMA, prompt: 7 } }),
      400,
      'validation_error',
      /^llm_extract\.prompt/,
    ],
  ];

  it.each(cases)(
    'refuses %s with its status and envelope, fetching and storing nothing',
    async (_, body, status, code, detail) => {
      const before = await storedCounts();
      const fetched = site.requests.length;
      const res = await scrape(body());
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      const envelope = (await res.json()) as Json;
      expect(envelope).toMatchObject({ object: 'error', code, status });
      expect(envelope.detail).toMatch(detail);
      expect(site.requests.length).toBe(fetched);
      expect(await storedCounts()).toEqual(before);
    },
  );

  it('refuses the same on batches and crawls, creating nothing', async () => {
    const before = await storedCounts();
    const items = [{ custom_id: 'a', url: url() }];
    const batches = [
      { items, llm_extract: { schema: { type: 'string' } } },
      { items, formats: ['json'] },
      { items, parser: { id: 'nope' } },
    ];
    const statuses = [];
    for (const json of batches) statuses.push((await app.request('/v1/batches', { method: 'POST', json })).status);
    const crawl = (scrape_options: unknown) =>
      app.request('/v1/crawls', { method: 'POST', json: { start_url: url(), max_pages: 2, scrape_options } });
    statuses.push((await crawl({ llm_extract: { schema: { type: 'boolean' } } })).status);
    statuses.push((await crawl({ parser: { id: 'nope' } })).status);
    expect(statuses).toEqual([400, 400, 404, 400, 404]);
    expect(await storedCounts()).toEqual(before);
  });
});

async function waitFor(path: string, done: (body: Json) => boolean, timeoutMs = 60_000): Promise<Json> {
  const started = Date.now();
  for (;;) {
    const body = await get(path);
    if (done(body)) return body;
    if (Date.now() - started > timeoutMs) throw new Error(`${path} still ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('batches and crawls', () => {
  it('fills json_content of every batch item by rules', async () => {
    const res = await app.request('/v1/batches', {
      method: 'POST',
      json: {
        items: [
          { custom_id: 'shoe', url: site.url('/product') },
          { custom_id: 'contact', url: site.url('/contact') },
        ],
        formats: ['json'],
        llm_extract: { schema: { name: '', price: 0 } },
      },
    });
    expect(res.status).toBe(200);
    const batch = (await res.json()) as Json;
    expect(batch.warning).toMatch(/^json_content of every page is filled without a model \(no model is configured\)/);
    const done = await waitFor(`/v1/batches/${batch.id}`, (b) => b.status !== 'in_progress');
    expect(done.warning).toBe(batch.warning);
    const items = (await get(`/v1/batches/${batch.id}/items`)).items as Json[];
    expect(items.map((i) => i.status ?? 'completed')).toEqual(['completed', 'completed']);
    const byId = Object.fromEntries(
      await Promise.all(
        items.map(async (i) => [
          i.custom_id,
          JSON.parse((await get(`/v1/retrieve?retrieve_id=${i.retrieve_id}`)).json_content),
        ]),
      ),
    );
    expect(byId).toEqual({
      shoe: { name: 'Trail Runner 2', price: 129.95 },
      contact: { name: 'Contact Ridge Outfitters', price: null },
    });
  });

  it('runs a parser on every batch item, and fails the items it cannot read', async () => {
    const res = await app.request('/v1/batches', {
      method: 'POST',
      json: {
        items: [
          { custom_id: 'shoe', url: site.url('/product') },
          { custom_id: 'json', url: site.url('/data.json') },
        ],
        formats: ['json'],
        parser: { id: 'structured-data' },
      },
    });
    const batch = (await res.json()) as Json;
    expect(batch.parser).toBe('structured-data');
    expect(batch.warning).toBeUndefined();
    await waitFor(`/v1/batches/${batch.id}`, (b) => b.status !== 'in_progress');
    const completed = (await get(`/v1/batches/${batch.id}/items?status=completed`)).items as Json[];
    const failed = (await get(`/v1/batches/${batch.id}/items?status=failed`)).items as Json[];
    expect(completed.map((i) => i.custom_id)).toEqual(['shoe']);
    const content = await get(`/v1/retrieve?retrieve_id=${completed[0]!.retrieve_id}`);
    expect(content.json_content).toContain('"TR2-42"');
    expect(failed).toEqual([
      expect.objectContaining({ custom_id: 'json', error: expect.objectContaining({ code: 'invalid_parser_input' }) }),
    ]);
  });

  it('fills json_content of every crawled page', async () => {
    const res = await app.request('/v1/crawls', {
      method: 'POST',
      json: {
        start_url: site.url('/product'),
        max_pages: 5,
        scrape_options: { formats: ['json', 'markdown'], parser: { id: '@olostep/extract-emails' } },
      },
    });
    expect(res.status).toBe(200);
    const crawl = (await res.json()) as Json;
    await waitFor(`/v1/crawls/${crawl.id}`, (c) => c.status !== 'in_progress');
    const pages = (await get(`/v1/crawls/${crawl.id}/pages?limit=100`)).pages as Json[];
    const byPath: Record<string, unknown> = {};
    for (const page of pages) {
      const content = await get(`/v1/retrieve?retrieve_id=${page.retrieve_id}`);
      byPath[new URL(page.url as string).pathname] = JSON.parse(content.json_content);
      expect(content.markdown_content).toBeTypeOf('string');
    }
    expect(crawl.warning).toBeNull();
    expect(byPath).toEqual({
      '/product': { emails: [] },
      '/contact': { emails: ['help@ridge.example', 'sales@ridge.example'] },
      '/': { emails: [] },
    });
  });

  it('fills json_content of crawled pages by rules, and the crawl says so', async () => {
    const res = await app.request('/v1/crawls', {
      method: 'POST',
      json: {
        start_url: site.url('/plans'),
        max_pages: 1,
        scrape_options: {
          llm_extract: {
            schema: {
              type: 'array',
              items: { type: 'object', properties: { plan: { type: 'string' }, seats: { type: 'string' } } },
            },
          },
        },
      },
    });
    const crawl = (await res.json()) as Json;
    expect(crawl.warning).toMatch(/^json_content of every page is filled without a model/);
    await waitFor(`/v1/crawls/${crawl.id}`, (c) => c.status !== 'in_progress');
    const [page] = (await get(`/v1/crawls/${crawl.id}/pages`)).pages as Json[];
    const content = await get(`/v1/retrieve?retrieve_id=${page!.retrieve_id}`);
    expect(JSON.parse(content.json_content)).toEqual([
      { plan: 'Starter', seats: '1' },
      { plan: 'Team', seats: '10' },
      { plan: 'Enterprise', seats: 'Unlimited' },
    ]);
    expect(content.markdown_content).toContain('Compare plans'); // json implied, markdown the default
  });
});
