import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../../../src/engine/guarded-fetch.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { AppError } from '../../../src/errors.js';
import { expectFailure } from '../../contract/engine.contract.js';
import type { ModelProvider } from '../../../src/models/model-provider.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../support/fake-openai.js';
import { createTestModel } from '../../support/test-model.js';
import { html, startFixtureServer, type FixtureServer } from '../../support/fixture-server.js';

describe('model calls and the outbound guard', () => {
  let fake: FakeOpenAI;
  let internal: FixtureServer;
  let provider: ModelProvider;
  // Production's policy: loopback and private networks refused.
  const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [] });
  const ask = { messages: [{ role: 'user' as const, content: 'hi' }] };

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    internal = await startFixtureServer({ '/v1/chat/completions': html('{"secret":"internal"}') });
    provider = createTestModel(fake.baseUrl, {}, { guard });
  });
  afterAll(async () => {
    await provider.close?.();
    await fake.close();
    await internal.close();
  });

  it('reaches MODEL_BASE_URL on 127.0.0.1 although the guard refuses private addresses', async () => {
    const plain = createGuardedFetch(guard);
    try {
      const direct = await plain.fetch(`${fake.baseUrl}/models`).catch((e: unknown) => e as Error);
      expect((direct as Error).cause).toBeInstanceOf(AppError);
    } finally {
      await plain.close();
    }
    fake.reply({ text: 'hello' });
    await expect(provider.generate(ask)).resolves.toMatchObject({ text: 'hello' });
  });

  it('refuses a model server redirect to a metadata address, without retrying', async () => {
    fake.calls.length = 0;
    fake.reply({ redirect: 'http://169.254.169.254/latest/meta-data/iam/', status: 307 });
    const err = await expectFailure(provider.generate(ask));
    expect(err).toMatchObject({ status: 502, code: 'model_error' });
    expect(err.detail).toMatch(/^the connection to the model server was refused by the outbound policy: .*metadata/);
    expect(fake.calls).toHaveLength(1);
  });

  it('refuses a model server redirect to another private service', async () => {
    fake.reply({ redirect: `http://127.0.0.1:${internal.port}/v1/chat/completions`, status: 307 });
    const err = await expectFailure(provider.generate(ask));
    expect(err).toMatchObject({ status: 502, code: 'model_error' });
    expect(err.detail).toMatch(/refused by the outbound policy: 127\.0\.0\.1 \(loopback\)/);
    expect(internal.hits('/v1/chat/completions')).toBe(0);
  });
});
