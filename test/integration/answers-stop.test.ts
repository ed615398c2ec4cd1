import { afterAll, beforeAll, expect, it } from 'vitest';
import { answerRunHandler } from '../../src/domain/answers/answer-run.job.js';
import { ANSWER_JOB } from '../../src/domain/answers/answer-run.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testModelSettings } from '../support/test-model.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

// An answer the API is still running when it stops goes back to the queue at once (not after its
// lease runs out), without counting the attempt, and a worker completes it.

let site: FixtureServer;
let model: FakeOpenAI;
let app: TestApp;
let releaseSlow: () => void = () => undefined;
let slowReads = 0;

beforeAll(async () => {
  site = await startFixtureServer({
    // The first read hangs until the test lets it go; the worker's read answers at once.
    '/slow': async (_req, res) => {
      if (slowReads++ === 0)
        await new Promise<void>((resolve) => {
          releaseSlow = resolve;
          setTimeout(resolve, 20_000);
        });
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Slow</title></head><body><p>Plan: Slowpoke</p><p>Price: 1 EUR</p></body></html>');
    },
  });
  model = await startFakeOpenAI();
  app = await startTestApp({
    config: {
      outbound: allowLocalPorts(site.port),
      model: testModelSettings(model.baseUrl, { timeoutMs: 1500, maxRetries: 0 }),
      answers: { waitMs: 300 },
    } as any,
  });
}, 60_000);

afterAll(async () => {
  releaseSlow();
  await app?.close();
  await model?.close();
  await site?.close();
});

const jobRow = async (id: string) => {
  const [row] = await app.container.db.orm.em
    .fork()
    .getConnection()
    .execute(`select status, lease_owner, attempts, run_at <= now() as due from jobs where id = ?`, [id]);
  return row as Body;
};

it('an answer running in a stopping API goes back to the queue at once and a worker completes it', async () => {
  const res = await app.request('/v1/answers', {
    method: 'POST',
    json: {
      task: 'slow plan price',
      json_format: { price: '' },
      urls: [site.url('/slow')],
      search: null,
      metadata: null,
    },
  });
  const started = (await res.json()) as Body;
  expect(started.status).toBe('in_progress');
  expect(await jobRow(started.id)).toMatchObject({ status: 'running', attempts: 1 });

  await app.container.modules.stop();

  expect(await jobRow(started.id)).toEqual({ status: 'queued', lease_owner: null, attempts: 0, due: true });
  releaseSlow();
  // The aborted run recorded nothing: the answer is still in progress, not failed.
  await new Promise((r) => setTimeout(r, 200));
  const pending = (await (
    await app.request(`/v1/answers/${started.id}`, { headers: { 'content-type': 'application/json' } })
  ).json()) as Body;
  expect(pending.status).toBe('in_progress');

  const [job] = await app.container.queue.claim(ANSWER_JOB, 'worker:2', 1);
  expect(job?.id).toBe(started.id);
  model.reply({ json: { price: '1 EUR' } });
  await answerRunHandler((app.container.services as any).answerRunner)(job as any, {
    signal: new AbortController().signal,
    queue: app.container.queue,
  });
  const done = (await (
    await app.request(`/v1/answers/${started.id}`, { headers: { 'content-type': 'application/json' } })
  ).json()) as Body;
  expect(done.status).toBe('completed');
  expect(JSON.parse(done.result.json_content)).toEqual({ price: '1 EUR' });
  expect((await jobRow(started.id)).status).toBe('completed');
}, 30_000);
