import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { testModelSettings } from '../support/test-model.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Body = Record<string, any>;

let site: FixtureServer;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureServer({
    '/facts': html('<html><head><title>Acme facts</title></head><body><main><p>Founded: 1999</p></main></body></html>'),
    '/about': html(
      '<html><head><title>About Acme</title></head><body><main><p>Acme was founded in 1999.</p></main></body></html>',
    ),
  });
  app = await startTestApp({ config: { outbound: allowLocalPorts(site.port) } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

const bodiless = { 'content-type': 'application/json' };

/** A context file through the public flow: grant, plain PUT, complete. */
async function contextFile(content: unknown, key?: string): Promise<string> {
  const grant = (await (
    await app.request('/v1/files', { method: 'POST', json: { filename: 'plans.json', purpose: 'context' }, key })
  ).json()) as Body;
  const put = await fetch(grant.upload_url, {
    method: 'PUT',
    headers: grant.upload_headers,
    body: JSON.stringify(content),
  });
  expect(put.status).toBeLessThan(300);
  const done = await app.request(`/v1/files/${grant.id}/complete`, { method: 'POST', headers: bodiless, key });
  expect(done.status).toBe(200);
  return grant.id as string;
}

describe('answers read context files', () => {
  it('a completed context file is a source: its values fill json_format without a model, and it is cited', async () => {
    const id = await contextFile({ plans: [{ plan: 'Pro', price: '49 EUR per month', seats: 10 }] });
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: {
        task: 'What does the Pro plan cost and how many seats does it have?',
        json_format: { plan: '', price: '', seats: 0 },
        urls: [site.url('/about')],
        context_file_ids: [id],
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(body.status).toBe('completed');
    expect(JSON.parse(body.result.json_content)).toEqual({ plan: 'Pro', price: '49 EUR per month', seats: 10 });
    expect(body.result.sources).toContain(id);
  });

  it('with a model, the file’s text is among the passages the model is sent', async () => {
    const model: FakeOpenAI = await startFakeOpenAI();
    model.reply({ json: { plan: 'Team', price: '99 EUR' } });
    const withModel = await startTestApp({
      config: {
        outbound: allowLocalPorts(site.port),
        model: testModelSettings(model.baseUrl, { timeoutMs: 5000, maxRetries: 0 }),
      } as any,
    });
    try {
      const grant = (await (
        await withModel.request('/v1/files', { method: 'POST', json: { filename: 'c.json', purpose: 'context' } })
      ).json()) as Body;
      await fetch(grant.upload_url, {
        method: 'PUT',
        headers: grant.upload_headers,
        body: JSON.stringify({ notes: 'The Team plan costs 99 EUR and includes the zebra-stripe add-on.' }),
      });
      expect(
        (await withModel.request(`/v1/files/${grant.id}/complete`, { method: 'POST', headers: bodiless })).status,
      ).toBe(200);
      const res = await withModel.request('/v1/answers', {
        method: 'POST',
        json: {
          task: 'What does the Team plan cost?',
          json_format: { plan: '', price: '' },
          urls: [site.url('/about')],
          context_file_ids: [grant.id],
        },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Body;
      expect(JSON.parse(body.result.json_content)).toEqual({ plan: 'Team', price: '99 EUR' });
      const sent = JSON.stringify(model.calls.map((r) => r.body));
      expect(sent).toContain('zebra-stripe add-on');
    } finally {
      await withModel.close();
      await model.close();
    }
  });

  it('another team’s context file → 404, a batch file → 400, and no answer is stored', async () => {
    const other = await app.otherTeam();
    const theirs = await contextFile({ secret: 'theirs' }, other.key);
    const before = ((await (await app.request('/v1/answers', { headers: bodiless })).json()) as Body).data.length;
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'What is the secret?', urls: [site.url('/about')], context_file_ids: [theirs] },
    });
    expect((await expectEnvelope(res, 404)).code).toBe('file_not_found');
    const batchFile = (await (
      await app.request('/v1/files', { method: 'POST', json: { filename: 'b.json', purpose: 'batch' } })
    ).json()) as Body;
    const wrongPurpose = await app.request('/v1/answers', {
      method: 'POST',
      json: { task: 'What is in it?', urls: [site.url('/about')], context_file_ids: [batchFile.id] },
    });
    expect((await expectEnvelope(wrongPurpose, 400)).code).toBe('invalid_file_purpose');
    const after = ((await (await app.request('/v1/answers', { headers: bodiless })).json()) as Body).data.length;
    expect(after).toBe(before);
  });
});

describe('answers past ANSWER_API_CONCURRENCY', () => {
  it('go to the worker lanes: POST answers in_progress at once, and a worker completes the answer', async () => {
    const lanes = await startTestApp({
      config: { outbound: allowLocalPorts(site.port), answers: { apiConcurrency: 0 } } as any,
      workers: true,
    });
    try {
      const res = await lanes.request('/v1/answers', {
        method: 'POST',
        json: { task: 'When was Acme founded?', json_format: { founded: 0 }, urls: [site.url('/facts')] },
      });
      expect(res.status).toBe(200);
      const started = (await res.json()) as Body;
      expect(started.status).toBe('in_progress');
      let answer = started;
      // A worker thread boots (and loads the module graph) before it takes the job: on a loaded
      // 2-core machine that alone can take tens of seconds, so the wait is generous.
      const until = Date.now() + 90_000;
      while (answer.status === 'in_progress' && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answer = (await (await lanes.request(`/v1/answers/${started.id}`, { headers: bodiless })).json()) as Body;
      }
      expect(answer.status).toBe('completed');
      expect(JSON.parse(answer.result.json_content)).toEqual({ founded: 1999 });
    } finally {
      await lanes.close();
    }
  }, 150_000);
});
