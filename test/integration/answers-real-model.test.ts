import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

// Opt-in: an answer composed by a real OpenAI-compatible server when MODEL_BASE_URL (and
// MODEL_NAME, maybe MODEL_API_KEY, MODEL_STRUCTURED_OUTPUT…) are set, e.g.
//   MODEL_BASE_URL=http://localhost:11434/v1 MODEL_NAME=llama3.1:8b npx vitest run test/integration/answers-real-model.test.ts
const modelEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MODEL_')));

describe.skipIf(!modelEnv.MODEL_BASE_URL)('answers with a real model (MODEL_BASE_URL)', { timeout: 300_000 }, () => {
  let site: FixtureServer;
  let app: TestApp;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/pricing': html(
        '<html><head><title>Acme pricing</title></head><body><h1>Plans</h1><p>The Starter plan costs 9 euros a month and includes 3 seats.</p><p>The Teams plan costs 29 euros a month.</p></body></html>',
      ),
    });
    app = await startTestApp({
      config: {
        outbound: allowLocalPorts(site.port),
        model: loadConfig(modelEnv).model,
        answers: { waitMs: 240_000 },
      } as never,
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await site?.close();
  });

  it('fills json_format from the page', async () => {
    const res = await app.request('/v1/answers', {
      method: 'POST',
      json: {
        task: 'How much does the Acme Teams plan cost per month, in euros?',
        json_format: { plan: '', price_eur: 0 },
        urls: [site.url('/pricing')],
      },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; result: { json_content: string; sources: string[] } };
    expect(body.status).toBe('completed');
    const value = JSON.parse(body.result.json_content) as { plan: string; price_eur: number };
    expect(value.price_eur).toBe(29);
    expect(body.result.sources).toEqual([site.url('/pricing')]);
  });
});
