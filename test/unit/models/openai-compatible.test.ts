import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createModelSetup } from '../../../src/plugins.js';
import { createOutboundGuard } from '../../../src/engine/outbound-guard.js';
import { expectFailure } from '../../contract/engine.contract.js';
import type { ModelProvider, ModelStreamPart } from '../../../src/models/model-provider.js';
import type { RetryEvent } from '../../../src/models/retry.js';
import { startFakeOpenAI, type FakeOpenAI } from '../../support/fake-openai.js';
import { createTestModel, type ModelSettings } from '../../support/test-model.js';

let fake: FakeOpenAI;
const opened: ModelProvider[] = [];
let retries: RetryEvent[] = [];

/** A provider for the fake, built like the service builds it, with private addresses refused. */
function provider(overrides: Partial<ModelSettings> = {}): ModelProvider {
  const created = createTestModel(fake.baseUrl, overrides, { onRetry: (event) => retries.push(event) });
  opened.push(created);
  return created;
}

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

const ask = { system: 'Be brief.', messages: [{ role: 'user' as const, content: 'Say hi.' }] };

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close?.()));
  fake.calls.length = 0;
  retries = [];
});
afterAll(() => fake.close());

describe('OpenAI-compatible provider: calls', () => {
  it('is absent when MODEL_BASE_URL is unset', () => {
    const guard = createOutboundGuard({ allowPrivate: false, denyDomains: [] });
    expect(createModelSetup({ model: null }, { guard })).toEqual({
      plugins: [],
      unavailable: [
        {
          id: 'openai-compatible',
          description: expect.any(String),
          reason: 'MODEL_BASE_URL and MODEL_NAME are not set',
        },
      ],
    });
  });

  it('sends a chat completion with the key, model, messages and token limit, and reads the reply', async () => {
    fake.reply({
      text: 'Hi!',
      reasoning: 'The user wants a greeting.',
      usage: { prompt_tokens: 7, completion_tokens: 2 },
    });
    const reply = await provider().generate(ask);
    expect(reply).toEqual({
      text: 'Hi!',
      reasoning: 'The user wants a greeting.',
      finishReason: 'stop',
      usage: { inputTokens: 7, outputTokens: 2, reasoningTokens: null },
      model: 'fake-model',
    });
    const call = fake.calls[0]!;
    expect(call.headers.authorization).toBe('Bearer sk-test');
    expect(call.body).toMatchObject({
      model: 'fake-model',
      max_tokens: 512,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say hi.' },
      ],
    });
    expect(call.body!.response_format).toBeUndefined();
    expect(call.body!.stream).toBeUndefined();
  });

  it('uses a per-request model and never more output tokens than the limit', async () => {
    fake.reply({ text: 'ok' });
    await provider().generate({ ...ask, model: 'other-model', maxOutputTokens: 100_000 });
    expect(fake.calls[0]!.body).toMatchObject({ model: 'other-model', max_tokens: 512 });
  });

  it('sends no Authorization header without a key', async () => {
    fake.reply({ text: 'ok' });
    await provider({ apiKey: null }).generate(ask);
    expect(fake.calls[0]!.headers.authorization).toBeUndefined();
  });

  it('asks for JSON as the structured-output mode says', async () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    const json = { schema, name: 'extract' };
    fake.reply({ json: { a: 1 } }, { json: { a: 1 } }, { json: { a: 1 } });
    await provider().generate({ ...ask, json });
    await provider({ structuredOutput: 'json_object' }).generate({ ...ask, json });
    await provider({ structuredOutput: 'prompt' }).generate({ ...ask, json });
    expect(fake.calls[0]!.body!.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'extract', schema },
    });
    expect(fake.calls[1]!.body!.response_format).toEqual({ type: 'json_object' });
    expect(fake.calls[2]!.body!.response_format).toBeUndefined();
  });

  it('lists the models of the server', async () => {
    fake.models = ['llama3.1:8b', 'qwen2.5:7b'];
    await expect(provider().listModels!()).resolves.toEqual(['llama3.1:8b', 'qwen2.5:7b']);
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-test');
  });
});

describe('OpenAI-compatible provider: failures', () => {
  it("retries a 429 after the server's retry-after-ms, then succeeds", async () => {
    fake.reply({ status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '30' } }, { text: 'ok' });
    await expect(provider().generate(ask)).resolves.toMatchObject({ text: 'ok' });
    expect(fake.calls).toHaveLength(2);
    expect(retries.map((r) => r.delayMs)).toEqual([30]);
  });

  it('caps a long Retry-After at the largest delay', async () => {
    fake.reply({ status: 429, headers: { 'retry-after': '3600' } }, { text: 'ok' });
    await expect(provider().generate(ask)).resolves.toMatchObject({ text: 'ok' });
    expect(retries.map((r) => r.delayMs)).toEqual([200]);
  });

  it('gives up after the retries with a 502 model_error saying what failed', async () => {
    fake.reply(
      { status: 500, message: 'CUDA out of memory' },
      { status: 503 },
      { status: 500, message: 'CUDA out of memory' },
    );
    const err = await expectFailure(provider().generate(ask));
    expect(err).toMatchObject({ status: 502, code: 'model_error' });
    expect(err.detail).toBe('the model server failed (500): CUDA out of memory (3 attempts)');
    expect(fake.calls).toHaveLength(3);
    expect(retries).toHaveLength(2);
    // Backoff doubles from 5 ms, ±25 %.
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(3);
    expect(retries[1]!.delayMs).toBeGreaterThanOrEqual(7);
  });

  it('does not retry a request the server rejects, and names the cause', async () => {
    fake.reply(
      { status: 400, message: "This model's maximum context length is 8192 tokens" },
      { status: 401, message: 'Invalid API key' },
    );
    const rejected = await expectFailure(provider().generate(ask));
    expect(rejected.detail).toBe(
      "the model server rejected the request (400): This model's maximum context length is 8192 tokens",
    );
    const key = await expectFailure(provider().generate(ask));
    expect(key.detail).toBe('the model server refused the API key (401): Invalid API key');
    expect(fake.calls).toHaveLength(2);
  });

  it('reports a malformed response without retrying it', async () => {
    fake.reply({ garbage: '<html>502 Bad Gateway</html>' });
    const err = await expectFailure(provider().generate(ask));
    expect(err).toMatchObject({ status: 502, code: 'model_error' });
    expect(err.detail).toMatch(/^the model server sent a malformed response/);
    expect(fake.calls).toHaveLength(1);
  });

  it('answers 504 request_timeout when the server hangs, without retrying', async () => {
    fake.reply({ hang: true });
    const err = await expectFailure(provider({ timeoutMs: 1000 }).generate(ask));
    expect(err).toMatchObject({
      status: 504,
      code: 'request_timeout',
      detail: 'the model did not answer within 1000 ms',
    });
    expect(fake.calls).toHaveLength(1);
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    fake.reply({ hang: true });
    const controller = new AbortController();
    const call = provider().generate({ ...ask, signal: controller.signal });
    await expect.poll(() => fake.calls.length).toBe(1);
    controller.abort(new Error('client went away'));
    await expect(call).rejects.toThrow('client went away');
  });

  it('reports an unreachable server after retrying it', async () => {
    const gone = await startFakeOpenAI();
    const baseUrl = gone.baseUrl;
    await gone.close();
    const err = await expectFailure(provider({ baseUrl, maxRetries: 1 }).generate(ask));
    expect(err).toMatchObject({ status: 502, code: 'model_error' });
    expect(err.detail).toBe('could not reach the model server (ECONNREFUSED) (2 attempts)');
  });
});

describe('OpenAI-compatible provider: streaming', () => {
  it('yields reasoning and text tokens in order, then the whole reply', async () => {
    fake.reply({
      text: 'Hello there, friend.',
      reasoning: 'Greet warmly.',
      usage: { prompt_tokens: 9, completion_tokens: 5 },
    });
    const parts = await collect(provider().stream(ask));
    const reasoning = parts.filter((p) => p.type === 'reasoning').map((p) => p.delta);
    const text = parts.filter((p) => p.type === 'text').map((p) => p.delta);
    expect(reasoning.join('')).toBe('Greet warmly.');
    expect(text).toEqual(['Hell', 'o th', 'ere,', ' fri', 'end.']);
    expect(parts.findIndex((p) => p.type === 'text')).toBeGreaterThan(
      parts.findLastIndex((p) => p.type === 'reasoning'),
    );
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      reply: {
        text: 'Hello there, friend.',
        reasoning: 'Greet warmly.',
        finishReason: 'stop',
        usage: { inputTokens: 9, outputTokens: 5, reasoningTokens: null },
        model: 'fake-model',
      },
    });
    expect(fake.calls[0]!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it('retries a 429 before the first token', async () => {
    fake.reply({ status: 429, headers: { 'retry-after-ms': '10' } }, { text: 'ok' });
    const parts = await collect(provider().stream(ask));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reply: { text: 'ok' } });
    expect(fake.calls).toHaveLength(2);
  });

  it('times out when tokens stop coming, after those that came', async () => {
    fake.reply({ stallAfter: ['Hel', 'lo'] });
    const seen: string[] = [];
    const run = async () => {
      for await (const part of provider({ timeoutMs: 1000 }).stream(ask))
        if (part.type === 'text') seen.push(part.delta);
    };
    const err = await expectFailure(run());
    expect(err).toMatchObject({
      status: 504,
      code: 'request_timeout',
      detail: 'the model stopped answering within 1000 ms',
    });
    expect(seen).toEqual(['Hel', 'lo']);
  });

  it('cancels the call when the consumer stops reading', async () => {
    fake.reply({ stallAfter: ['first'] });
    const stream = provider().stream(ask);
    for await (const part of stream) {
      expect(part).toEqual({ type: 'text', delta: 'first' });
      break;
    }
    await expect.poll(() => fake.calls[0]!.disconnected).toBe(true);
  });
});
