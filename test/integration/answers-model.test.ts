import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerRunHandler } from '../../src/domain/answers/answer-run.job.js';
import { ANSWER_JOB } from '../../src/domain/answers/answer-run.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { startFakeOpenAI, type ChatRequestBody, type FakeOpenAI } from '../support/fake-openai.js';
import { startFakeSearxng, type FakeSearxng } from '../support/fake-searxng.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { collect, wsClient } from '../support/graphql-ws.js';
import { testModelSettings } from '../support/test-model.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

const page = (title: string, body: string) =>
  html(`<html><head><title>${title}</title></head><body><main>${body}</main></body></html>`);

let site: FixtureServer;
let model: FakeOpenAI;
let searxng: FakeSearxng;
let app: TestApp;

const PRICING = `<h1>Acme plans</h1><p>Plan: Starter</p><p>Price: 9 EUR per month</p>
  <h2>History</h2><p>The company sold anvils before it sold software.</p>`;

beforeAll(async () => {
  site = await startFixtureServer({
    '/pricing': page('Acme pricing', PRICING),
    '/about': page('About Acme', '<h1>About</h1><p>Acme was founded in 1999 in a garage in Ghent.</p>'),
    '/secret': page('Zebra roadmap', '<p>Pricing of the zebra launch: 99 EUR, confidential.</p>'),
    '/slow': async (_req, res) => {
      await new Promise((r) => setTimeout(r, 6500));
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Slow</title></head><body><p>Plan: Slowpoke</p><p>Price: 1 EUR</p></body></html>');
    },
  });
  model = await startFakeOpenAI();
  searxng = await startFakeSearxng(() => ({
    results: [
      { url: site.url('/pricing'), title: 'Acme pricing', content: 'Starter 9 EUR' },
      { url: site.url('/about'), title: 'About Acme', content: 'founded 1999' },
    ],
  }));
  app = await startTestApp({
    config: {
      outbound: allowLocalPorts(site.port),
      searxng: { url: searxng.url, timeoutMs: 2000 },
      model: testModelSettings(model.baseUrl, { timeoutMs: 1500, maxRetries: 0 }),
      answers: { waitMs: 5000 },
    } as any,
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await model?.close();
  await searxng?.close();
  await site?.close();
});

const userText = (body: ChatRequestBody | null) =>
  (body?.messages ?? [])
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((c) => c.text).join('')))
    .join('\n');

async function answerCount(): Promise<number> {
  const res = await app.request('/v1/answers?limit=100', { headers: { 'content-type': 'application/json' } });
  return ((await res.json()) as Body).data.length;
}

async function waitFor(id: string, status: string): Promise<Body> {
  for (let i = 0; i < 100; i++) {
    const body = (await (
      await app.request(`/v1/answers/${id}`, { headers: { 'content-type': 'application/json' } })
    ).json()) as Body;
    if (body.status === status) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`answer ${id} never became ${status}`);
}

/** The answer a POST returned, followed to its end when the loaded machine made it outlast the wait. */
async function settled(res: Response): Promise<Body> {
  expect(res.status).toBe(200);
  const body = (await res.json()) as Body;
  return body.status === 'in_progress' ? waitFor(body.id, 'completed') : body;
}

describe('answers with a model and SearXNG', () => {
  it('searches, reads the results, sends the model the schema and the right passages, returns its JSON', async () => {
    model.reply({ json: { plan: 'Starter', price: 9 } });
    const calls = model.calls.length;
    const task = 'How much does the Acme Starter plan cost per month?';
    const body = await settled(
      await app.request('/v1/answers', { method: 'POST', json: { task, json_format: { plan: '', price: 0 } } }),
    );
    expect(body).toMatchObject({ object: 'answer', status: 'completed', task });
    expect(body.result.json_content).toBe('{"plan":"Starter","price":9}');
    expect(body.result.sources[0]).toBe(site.url('/pricing'));
    expect(body.warning).toBeUndefined();
    expect(searxng.queries.at(-1)?.get('q')).toBe(task);

    expect(model.calls.length).toBe(calls + 1);
    const sent = model.calls.at(-1)!.body!;
    expect(sent.response_format?.type).toBe('json_schema');
    expect(sent.response_format?.json_schema?.schema).toMatchObject({
      type: 'object',
      properties: { plan: { type: ['string', 'null'] }, price: { type: ['number', 'null'] } },
      required: ['plan', 'price'],
    });
    const prompt = userText(sent);
    expect(prompt).toContain(task);
    expect(prompt).toContain('Price: 9 EUR per month');
    expect(prompt).toContain(site.url('/pricing'));
    // BM25 put the pricing passage first: it is Source [1].
    expect(prompt.indexOf(site.url('/pricing'))).toBeLessThan(prompt.indexOf('Price: 9 EUR'));
  });

  it('the stored provider feeds the model this team’s pages only', async () => {
    const other = await app.otherTeam();
    for (const [path, key] of [
      ['/pricing', app.key],
      ['/secret', other.key],
    ] as const) {
      const res = await app.request('/v1/scrapes', { method: 'POST', json: { url_to_scrape: site.url(path) }, key });
      expect(res.status).toBe(200);
    }
    model.reply({ json: { answer: 'Starter costs 9 EUR per month' } });
    const body = await settled(
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: 'pricing of the launch', search: { provider: 'stored' } },
      }),
    );
    expect(body.status).toBe('completed');
    expect(body.result.sources).toEqual([site.url('/pricing')]);
    const prompt = userText(model.calls.at(-1)!.body);
    expect(prompt).toContain('Price: 9 EUR per month');
    expect(prompt).not.toMatch(/zebra/i);
    expect(JSON.parse(body.result.json_content)).toEqual({ answer: 'Starter costs 9 EUR per month' });
  });

  it('a list shape (the Python SDK’s example) becomes an array schema with every key required', async () => {
    model.reply({ json: { products: [{ name: 'Starter', price: '9 EUR' }] } });
    const body = await settled(
      await app.request('/v1/answers', {
        method: 'POST',
        json: {
          task: 'Extract all product names and prices',
          json_format: { products: [{ name: '', price: '' }] },
          urls: [site.url('/pricing')],
        },
      }),
    );
    expect(JSON.parse(body.result.json_content)).toEqual({ products: [{ name: 'Starter', price: '9 EUR' }] });
    expect(model.calls.at(-1)!.body!.response_format?.json_schema?.schema).toEqual({
      type: 'object',
      properties: {
        products: {
          type: ['array', 'null'],
          items: {
            type: 'object',
            properties: { name: { type: ['string', 'null'] }, price: { type: ['string', 'null'] } },
            required: ['name', 'price'],
          },
        },
      },
      required: ['products'],
    });
  });

  it('a reply that breaks the schema gets one repair round', async () => {
    model.reply({ json: { plan: 5 } }, { json: { plan: 'Starter', price: 9 } });
    const calls = model.calls.length;
    const body = await settled(
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: 'Starter price', json_format: { plan: '', price: 0 }, urls: [site.url('/pricing')] },
      }),
    );
    expect(body.result.json_content).toBe('{"plan":"Starter","price":9}');
    expect(model.calls.length).toBe(calls + 2);
    expect(userText(model.calls.at(-1)!.body)).toMatch(/does not match the required JSON Schema/);
  });

  it.each([
    ['429', 502, 'model_error', [{ status: 429, headers: { 'retry-after': '0' } }]],
    ['500', 502, 'model_error', [{ status: 500 }]],
    ['garbage', 502, 'model_error', [{ garbage: '<html>oops</html>' }]],
    ['JSON that breaks the schema twice', 502, 'model_error', [{ json: { plan: 5 } }, { json: { plan: [] } }]],
    ['no answer', 504, 'request_timeout', [{ hang: true }]],
  ] as const)('model %s → %i %s, nothing left behind', async (_name, status, code, replies) => {
    const before = await answerCount();
    model.reply(...(replies as any));
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'Starter price', json_format: { plan: '', price: 0 }, urls: [site.url('/pricing')] },
    });
    expect((await expectEnvelope(res, status)).code).toBe(code);
    expect(await answerCount()).toBe(before);
  });

  it('SearXNG down → 503 search_unavailable, no model call, nothing left behind', async () => {
    const before = await answerCount();
    const calls = model.calls.length;
    searxng.answer = () => ({ status: 502 });
    try {
      const res = await app.request('/v1/answers', { method: 'POST', json: { task: 'Acme pricing' } });
      expect((await expectEnvelope(res, 503)).code).toBe('search_unavailable');
    } finally {
      searxng.answer = () => ({ results: [{ url: site.url('/pricing'), title: 'Acme pricing', content: '' }] });
    }
    expect(model.calls.length).toBe(calls);
    expect(await answerCount()).toBe(before);
  });
});

describe('answers that take longer than the wait', () => {
  it('come back in_progress; GET and the progress subscription follow them to completed', async () => {
    model.reply({ json: { plan: 'Slowpoke', price: 1 } });
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'slow plan price', json_format: { plan: '', price: 0 }, urls: [site.url('/slow')] },
    });
    expect(res.status).toBe(200);
    const started = (await res.json()) as Body;
    expect(started).toMatchObject({ status: 'in_progress', result: { json_content: null, sources: [] } });

    const client = wsClient(app.server.url, app.key);
    const events = collect<{ answerProgress: Body }>(
      client,
      `subscription { answerProgress(id: "${started.id}") { answerId status phase done total } }`,
      4,
    );
    const done = await waitFor(started.id, 'completed');
    expect(done.result.json_content).toBe('{"plan":"Slowpoke","price":1}');
    expect(done.result.sources).toEqual([site.url('/slow')]);
    const seen = (await events.done).map((e) => e.answerProgress);
    await client.dispose();
    expect(seen.map((e) => [e.answerId, e.phase, e.done, e.total])).toEqual([
      [started.id, 'reading', 0, 0],
      [started.id, 'reading', 1, 1],
      [started.id, 'composing', 0, 0],
      [started.id, 'completed', 0, 0],
    ]);
    expect(seen.at(-1)!.status).toBe('completed');
  });

  it('an answer that fails after the wait ends failed with its error; GET shows it', async () => {
    model.reply({ status: 500 });
    const started = (await (
      await app.request('/v1/answers', {
        method: 'POST',
        json: { task: 'slow plan price', json_format: { plan: '' }, urls: [site.url('/slow')] },
      })
    ).json()) as Body;
    expect(started.status).toBe('in_progress');
    const failed = await waitFor(started.id, 'failed');
    expect(failed.error).toMatchObject({ code: 'model_error' });
    expect(failed.result).toEqual({ json_content: null, json_hosted_url: null, sources: [] });
  });

  it('an answer whose runner died is taken up again from the queue and completed', async () => {
    const { queue, db } = app.container;
    const id = 'answer_crashtest0000000000';
    const em = db.orm.em.fork();
    await em
      .getConnection()
      .execute(`insert into answers (id, team_id, task, request, metadata) values (?, ?, ?, ?, '{}')`, [
        id,
        app.teamId,
        'Starter price',
        JSON.stringify({ json_format: { price: '' }, urls: [site.url('/pricing')] }),
      ]);
    await queue.enqueue([{ id, kind: ANSWER_JOB, teamId: app.teamId }]);
    // The API claimed it, then died: its lease runs out and the reaper gives the job back.
    expect(await queue.claimById(ANSWER_JOB, id, 'dead-api:1')).not.toBeNull();
    await em
      .getConnection()
      .execute(`update jobs set lease_expires_at = now() - interval '1 second' where id = ?`, [id]);
    expect((await queue.reap([ANSWER_JOB])).requeued).toBe(1);
    const [job] = await queue.claim(ANSWER_JOB, 'worker:2', 1);
    expect(job?.id).toBe(id);
    model.reply({ json: { price: '9 EUR per month' } });
    await answerRunHandler((app.container.services as any).answerRunner)(job as any, {
      signal: new AbortController().signal,
      queue,
    });
    const done = await waitFor(id, 'completed');
    expect(JSON.parse(done.result.json_content)).toEqual({ price: '9 EUR per month' });
    const [row] = await em.getConnection().execute(`select status from jobs where id = ?`, [id]);
    expect(row?.status).toBe('completed');
  });
});

describe('GraphQL', () => {
  it('createAnswer, answer and answers', async () => {
    model.reply({ json: { plan: 'Starter', price: 9 } });
    const created = await graphql(
      app.url,
      app.key,
      `
        mutation ($input: CreateAnswerInput!) {
          createAnswer(input: $input) {
            id
            status
            jsonContent
            sources
          }
        }
      `,
      { input: { task: 'Starter price', jsonFormat: { plan: '', price: 0 }, urls: [site.url('/pricing')] } },
    );
    expect(created.errors).toBeUndefined();
    const answer = created.data!.createAnswer as Body;
    expect(answer).toMatchObject({ status: 'completed', jsonContent: '{"plan":"Starter","price":9}' });
    const read = await graphql(
      app.url,
      app.key,
      `
        query ($id: ID!) {
          answer(id: $id) {
            id
            status
          }
          answers(limit: 1) {
            id
          }
        }
      `,
      {
        id: answer.id,
      },
    );
    expect(read.data).toEqual({ answer: { id: answer.id, status: 'completed' }, answers: [{ id: answer.id }] });
    const bad = await graphql(
      app.url,
      app.key,
      `
        mutation {
          createAnswer(input: { task: "" }) {
            id
          }
        }
      `,
    );
    expect(bad.errors?.[0]?.extensions.code).toBe('validation_error');
  });
});
