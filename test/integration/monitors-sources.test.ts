import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startFakeSearxng, type FakeSearxng, type FakeSearxngResult } from '../support/fake-searxng.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { editablePage, eventually } from '../support/monitor-harness.js';

// The other kinds of source: a web query re-run through the search provider, and a page whose
// data (output_schema) is extracted and diffed field by field.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let site: FixtureServer;
let searxng: FakeSearxng;
let app: TestApp;
let results: FakeSearxngResult[] = [];
const product = (price: string, stock: string) =>
  `<title>Kettle</title><script type="application/ld+json">${JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: 'Steel Kettle',
    offers: { '@type': 'Offer', price, priceCurrency: 'USD', availability: `https://schema.org/${stock}` },
  })}</script><h1>Steel Kettle</h1><p>Price: $${price}</p>`;
const kettle = editablePage(product('20.00', 'InStock'));

beforeAll(async () => {
  site = await startFixtureServer({ '/kettle': kettle.handler });
  searxng = await startFakeSearxng(() => ({ results }));
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port),
      workers: { leaseMs: 10_000, retryBaseMs: 100 },
      searxng: { url: searxng.url, timeoutMs: 5000 },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await searxng?.close();
  await site?.close();
});

const get = async (path: string) => (await (await app.request(path)).json()) as Json;
async function create(body: Json): Promise<string> {
  const res = await app.request('/v1/monitors', { method: 'POST', json: body });
  expect(res.status).toBe(202);
  const id = ((await res.json()) as Json).id as string;
  await eventually(
    () => get(`/v1/monitors/${id}`),
    (m) => m.status === 'active',
  );
  return id;
}
async function runNow(id: string): Promise<Json> {
  const { run_id } = (await (await app.request(`/v1/monitors/${id}/runs`, { method: 'POST' })).json()) as Json;
  return eventually(
    () => get(`/v1/monitors/${id}/runs/${run_id}`),
    (r) => r.status === 'completed' || r.status === 'failed',
  );
}

describe('a web query', () => {
  it('re-runs the search each run and reports new results', async () => {
    results = [{ url: 'https://kettles.example/review-1', title: 'Kettle review one', content: 'snippet 1' }];
    const id = await create({ query: 'new electric kettle models' });
    const monitor = await get(`/v1/monitors/${id}`);
    expect(monitor.tracked).toMatchObject({ type: 'web_query', urls: [] });
    expect(monitor.tracked.web_query).toMatch(/electric kettle/);

    // A rotating snippet is not a change.
    results = [{ url: 'https://kettles.example/review-1', title: 'Kettle review one', content: 'snippet 2' }];
    expect((await runNow(id)).change_detected).toBe(false);

    results = [
      { url: 'https://kettles.example/review-1', title: 'Kettle review one', content: 'snippet 3' },
      { url: 'https://kettles.example/launch', title: 'Acme launches a glass kettle', content: '…' },
    ];
    const run = await runNow(id);
    expect(run).toMatchObject({ status: 'completed', change_detected: true });
    expect(run.summary).toContain('Acme launches a glass kettle');
    expect(searxng.queries.length).toBeGreaterThanOrEqual(3);
  });
});

describe('output_schema', () => {
  it('extracts data and reports it field by field', async () => {
    const id = await create({
      query: `Watch the kettle at ${site.url('/kettle')}`,
      output_schema: {
        type: 'object',
        properties: { name: { type: 'string' }, price: { type: 'number' } },
      },
    });
    kettle.edit(product('25.00', 'InStock'));
    const run = await runNow(id);
    expect(run.change_detected).toBe(true);
    expect(run.summary).toMatch(/Price (rose|went up|increased).*\$20\.00.*\$25\.00|\$20.*\$25/);
    const [event] = (await get(`/v1/monitors/${id}/events?limit=1`)).data as Json[];
    expect(event).toMatchObject({
      type: 'changed',
      data: { name: 'Steel Kettle', price: 25 },
      data_changes: [{ op: 'replace', path: '/price', from: 20, value: 25 }],
    });
  });
});
