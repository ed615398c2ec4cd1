import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { readSse } from '../support/monitor-harness.js';
import { testModelSettings } from '../support/test-model.js';

// With a model configured, the model plans (structured output) and its reasoning streams as
// reasoning_token events; what it names is kept only within the policies; a model that fails
// leaves the deterministic plan.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let site: FixtureServer;
let fake: FakeOpenAI;
let app: TestApp;
/** The monitor of the second planning test, reused by the summary tests. */
let kettleMonitor = '';

beforeAll(async () => {
  site = await startFixtureServer({
    '/': html('<title>Shop</title><h1>Shop</h1><a href="/kettle">Kettle</a>'),
    '/kettle': html('<title>Kettle</title><h1>Kettle</h1><p>Price: $20</p>'),
  });
  fake = await startFakeOpenAI();
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port),
      workers: { leaseMs: 10_000, retryBaseMs: 100 },
      model: testModelSettings(fake.baseUrl, {
        apiKey: null,
        name: 'fake-planner',
        maxRetries: 0,
        contextTokens: 8000,
        maxOutputTokens: 1000,
      }),
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await fake?.close();
  await site?.close();
});

const create = (query: string) =>
  app.request('/v1/monitors?stream=1', { method: 'POST', json: { query, frequency: 'every hour' } });

describe('planning with a model', () => {
  it('streams the model’s reasoning and tracks the page it chose', async () => {
    fake.reply({
      json: {
        urls: [site.url('/kettle'), 'http://10.0.0.1/private', 'ftp://nope.example/'],
        web_query: null,
        explanation: 'The kettle page shows the price',
      },
      reasoning: 'The shop front page links to the kettle page, which has the price.',
    });
    const events = await readSse(await create(`Tell me when the kettle price changes on ${site.url('/')}`), (e) =>
      ['complete', 'error'].includes(e.event),
    );
    const names = events.map((e) => e.event);
    expect(names[0]).toBe('phase');
    expect((events[0]!.data as Json).phase).toBe('planning');
    const tokens = events.filter((e) => e.event === 'reasoning_token').map((e) => (e.data as Json).token as string);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join('')).toBe('The shop front page links to the kettle page, which has the price.');
    const phases = events.filter((e) => e.event === 'phase').map((e) => (e.data as Json).phase);
    expect(phases).toEqual(['planning', 'resolving_sources', 'first_snapshot', 'scheduling']);
    expect(names.indexOf('reasoning_token')).toBeLessThan(names.lastIndexOf('phase'));
    const { monitor } = events[events.length - 1]!.data as Json;
    // The private and ftp URLs the model named are dropped.
    expect(monitor.tracked).toEqual({ type: 'urls', urls: [site.url('/kettle')], web_query: null });
    expect(monitor.plan_explanation).toMatch(/^The kettle page shows the price \(planned by fake-planner\)/);
    expect(monitor.status).toBe('active');
    const body = fake.calls[0]!.body!;
    expect(body.stream).toBe(true);
    expect(body.response_format?.json_schema?.name).toBe('monitor_plan');
  });

  it('keeps the deterministic plan when the model fails', async () => {
    fake.reply({ status: 500, message: 'overloaded' });
    const events = await readSse(await create(`Watch ${site.url('/kettle')}`), (e) =>
      ['complete', 'error'].includes(e.event),
    );
    const { monitor } = events[events.length - 1]!.data as Json;
    expect(monitor).toMatchObject({ status: 'active', tracked: { type: 'urls', urls: [site.url('/kettle')] } });
    expect(monitor.plan_explanation).toMatch(/the model could not plan/);
    kettleMonitor = monitor.id as string;
  });
});

describe('summaries with a model', () => {
  const runNow = async (id: string): Promise<Json> => {
    const { run_id } = (await (await app.request(`/v1/monitors/${id}/runs`, { method: 'POST' })).json()) as Json;
    for (;;) {
      const run = (await (await app.request(`/v1/monitors/${id}/runs/${run_id}`)).json()) as Json;
      if (run.status === 'completed' || run.status === 'failed') return run;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('asks the model to summarise a change, with the diff', async () => {
    site.route('/kettle', html('<title>Kettle</title><h1>Kettle</h1><p>Price: $25</p>'));
    fake.reply({ text: 'The kettle now costs $25 instead of $20.' });
    const run = await runNow(kettleMonitor);
    expect(run).toMatchObject({ change_detected: true, summary: 'The kettle now costs $25 instead of $20.' });
    const prompt = JSON.stringify(fake.calls[fake.calls.length - 1]!.body!.messages);
    expect(prompt).toContain('+Price: $25');
    expect(prompt).toContain('-Price: $20');
  });

  it('falls back to the deterministic summary when the model fails', async () => {
    site.route('/kettle', html('<title>Kettle</title><h1>Kettle</h1><p>Price: $30</p>'));
    fake.reply({ status: 500, message: 'overloaded' });
    const run = await runNow(kettleMonitor);
    expect(run.change_detected).toBe(true);
    expect(run.summary).toMatch(/Price: \$30/);
  });
});
