import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createModelSetup } from '../../src/plugins.js';
import { createOutboundGuard } from '../../src/engine/outbound-guard.js';
import type { ModelProvider } from '../../src/models/model-provider.js';
import { generateObject } from '../../src/models/structured-output.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startExtractSite } from '../support/extract-site.js';
import type { FixtureServer } from '../support/fixture-server.js';

// Opt-in: runs against a real OpenAI-compatible server when MODEL_BASE_URL (and MODEL_NAME,
// maybe MODEL_API_KEY, MODEL_STRUCTURED_OUTPUT…) are set in the environment, e.g.
//   MODEL_BASE_URL=http://localhost:11434/v1 MODEL_NAME=llama3.1:8b npx vitest run test/integration/real-model.test.ts
const modelEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('MODEL_')));

describe.skipIf(!modelEnv.MODEL_BASE_URL)('a real model server (MODEL_BASE_URL)', { timeout: 300_000 }, () => {
  let provider: ModelProvider;

  beforeAll(() => {
    const config = loadConfig(modelEnv);
    // Production's policy: only the configured model host is reachable if it is private.
    const guard = createOutboundGuard(config.outbound);
    provider = createModelSetup(config, { guard }).plugins[0]!;
  });
  afterAll(() => provider?.close?.());

  it('lists its models', async () => {
    const models = await provider.listModels!();
    // The server serves the configured model, so it lists it (an empty list is a broken listing).
    expect(models).toContain(modelEnv.MODEL_NAME);
  });

  it('answers a prompt', async () => {
    const reply = await provider.generate({
      messages: [{ role: 'user', content: 'Reply with the single word: ready' }],
      maxOutputTokens: 256,
    });
    expect(reply.text.toLowerCase()).toContain('ready');
  });

  it('streams the reply token by token', async () => {
    const deltas: string[] = [];
    let text = '';
    for await (const part of provider.stream({ messages: [{ role: 'user', content: 'Count from 1 to 5.' }] })) {
      if (part.type === 'text') deltas.push(part.delta);
      if (part.type === 'finish') text = part.reply.text;
    }
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(text);
  });

  it('fills a JSON Schema from a page', async () => {
    const schema = {
      type: 'object',
      properties: { product: { type: 'string' }, price_eur: { type: 'number' } },
      required: ['product', 'price_eur'],
    };
    const page =
      '# Acme Anvils\n\nOur standard anvil weighs 50 kg.\n\n## Prices\n\nThe standard anvil costs 120 euros.';
    const result = await generateObject(provider, {
      schema,
      system: 'Extract the product and its price in euros from the page.',
      prompt: page,
    });
    expect(result.object).toMatchObject({ price_eur: 120 });
  });

  describe('through the service: llm_extract on a scrape', () => {
    let app: TestApp;
    let site: FixtureServer;

    beforeAll(async () => {
      site = await startExtractSite();
      // The service with this model: only the fixture site is allowed besides the model host.
      app = await startTestApp({ config: { outbound: allowLocalPorts(site.port), model: loadConfig(modelEnv).model } });
    }, 120_000);
    afterAll(async () => {
      await app?.close();
      await site?.close();
    });

    it('fills the schema from the page', async () => {
      const res = await app.request('/v1/scrapes', {
        method: 'POST',
        json: {
          url_to_scrape: site.url('/product'),
          formats: ['json'],
          llm_extract: {
            schema: {
              type: 'object',
              properties: { name: { type: 'string' }, price: { type: 'number' }, currency: { type: 'string' } },
              required: ['name', 'price', 'currency'],
            },
            prompt: 'The product this page sells',
          },
        },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as { result: { json_content: string }; warning?: string };
      expect(JSON.parse(body.result.json_content)).toMatchObject({ price: 129.95, currency: 'EUR' });
      expect(body.warning).toBeUndefined();
    });
  });
});
