import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { expectFailure } from '../../contract/engine.contract.js';
import { fitToTokenBudget, pageTokenBudget, schemaQueryText } from '../../../src/models/context-budget.js';
import type { ModelProvider } from '../../../src/models/model-provider.js';
import { generateObject, parseJsonReply } from '../../../src/models/structured-output.js';
import { startFakeOpenAI, type ChatRequestBody, type FakeOpenAI } from '../../support/fake-openai.js';
import { createTestModel, type ModelSettings } from '../../support/test-model.js';

const schema = {
  type: 'object',
  properties: { product: { type: 'string' }, price: { type: 'number', description: 'price in euros' } },
  required: ['product', 'price'],
  additionalProperties: false,
};

let fake: FakeOpenAI;
const opened: ModelProvider[] = [];

function provider(overrides: Partial<ModelSettings> = {}): ModelProvider {
  const created = createTestModel(fake.baseUrl, {
    apiKey: null,
    contextTokens: 2048,
    maxOutputTokens: 256,
    ...overrides,
  });
  opened.push(created);
  return created;
}

/** The text of every message of a recorded call, by role. */
function messages(body: ChatRequestBody | null): { role: string; text: string }[] {
  return (body?.messages ?? []).map((m) => ({
    role: m.role,
    text: typeof m.content === 'string' ? m.content : m.content.map((p) => p.text).join(''),
  }));
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.close?.()));
  fake.calls.length = 0;
});
afterAll(() => fake.close());

describe('generateObject', () => {
  it('returns the validated object and sends the schema as response_format', async () => {
    fake.reply({ json: { product: 'Anvil', price: 120 }, usage: { prompt_tokens: 50, completion_tokens: 10 } });
    const result = await generateObject(provider(), { schema, system: 'Extract.', prompt: 'Anvil: 120 euros' });
    expect(result).toMatchObject({ object: { product: 'Anvil', price: 120 }, attempts: 1, model: 'fake-model' });
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 10, reasoningTokens: null });
    const body = fake.calls[0]!.body!;
    expect(body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'response', schema } });
    expect(messages(body)).toEqual([
      { role: 'system', text: 'Extract.\n\nReply with JSON that matches the given JSON Schema.' },
      { role: 'user', text: 'Anvil: 120 euros' },
    ]);
  });

  it('repairs a reply that breaks the schema, telling the model what was wrong', async () => {
    fake.reply(
      { json: { product: 'Anvil', price: '120 €' }, usage: { prompt_tokens: 50, completion_tokens: 10 } },
      { json: { product: 'Anvil', price: 120 }, usage: { prompt_tokens: 80, completion_tokens: 9 } },
    );
    const result = await generateObject(provider(), { schema, prompt: 'Anvil: 120 euros' });
    expect(result).toMatchObject({ object: { product: 'Anvil', price: 120 }, attempts: 2 });
    expect(result.usage).toEqual({ inputTokens: 130, outputTokens: 19, reasoningTokens: null });
    const repair = messages(fake.calls[1]!.body);
    expect(repair.slice(1)).toEqual([
      { role: 'user', text: 'Anvil: 120 euros' },
      { role: 'assistant', text: '{"product":"Anvil","price":"120 €"}' },
      {
        role: 'user',
        text: 'Your reply does not match the required JSON Schema:\n- /price: must be number\nReply again with only the corrected JSON, no explanations.',
      },
    ]);
    expect(fake.calls[1]!.body!.response_format?.type).toBe('json_schema');
  });

  it('answers 502 model_error when the repaired reply is still wrong', async () => {
    fake.reply({ json: { product: 'Anvil' } }, { json: { price: 'free' } });
    const err = await expectFailure(generateObject(provider(), { schema, prompt: 'x' }));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 502, code: 'model_error' });
    expect(err.detail).toBe(
      "the model's reply did not match the requested schema, even after a repair round: /: must have required property 'product'; /price: must be number",
    );
    expect(fake.calls).toHaveLength(2);
  });

  it('repairs prose instead of JSON, and a reply cut off at the token limit', async () => {
    fake.reply({ text: 'Sure! The anvil costs 120 euros.' }, { json: { product: 'Anvil', price: 120 } });
    await generateObject(provider(), { schema, prompt: 'x' });
    expect(messages(fake.calls[1]!.body).at(-1)!.text).toMatch(
      /^Your reply does not match the required JSON Schema:\n- not valid JSON/,
    );
    fake.calls.length = 0;
    fake.reply({ text: '{"product": "Anv', finishReason: 'length' }, { json: { product: 'Anvil', price: 1 } });
    await generateObject(provider(), { schema, prompt: 'x' });
    expect(messages(fake.calls[1]!.body).at(-1)!.text).toMatch(/^Your reply was cut off before the JSON was complete/);
  });

  it('puts the schema in the prompt when the server has no JSON Schema mode, and finds JSON in a fenced reply', async () => {
    fake.reply({ text: 'Here you go:\n```json\n{"product": "Anvil", "price": 120}\n```' });
    const result = await generateObject(provider({ structuredOutput: 'prompt' }), { schema, prompt: 'x' });
    expect(result.object).toEqual({ product: 'Anvil', price: 120 });
    const body = fake.calls[0]!.body!;
    expect(body.response_format).toBeUndefined();
    expect(messages(body)[0]!.text).toContain(`matches this JSON Schema:\n${JSON.stringify(schema)}`);
  });

  it('refuses an invalid schema with a 400 before calling the model', async () => {
    const err = await expectFailure(
      generateObject(provider(), {
        schema: { type: 'objekt' },
        schemaField: 'json_format',
        prompt: 'x',
      }),
    );
    expect(err).toMatchObject({ status: 400, code: 'validation_error' });
    expect(err.detail).toMatch(/^json_format: invalid JSON Schema/);
    expect(fake.calls).toHaveLength(0);
  });

  it('streams tokens for live progress, the repair round marked as attempt 2', async () => {
    fake.reply(
      { json: { product: 'Anvil', price: 'x' }, reasoning: 'Look for a price.' },
      { json: { product: 'Anvil', price: 120 } },
    );
    const tokens: { type: string; delta: string; attempt: number }[] = [];
    const result = await generateObject(provider(), { schema, prompt: 'x', onToken: (t) => tokens.push(t) });
    expect(result.object).toEqual({ product: 'Anvil', price: 120 });
    const text = (attempt: number) =>
      tokens
        .filter((t) => t.attempt === attempt && t.type === 'text')
        .map((t) => t.delta)
        .join('');
    expect(text(1)).toBe('{"product":"Anvil","price":"x"}');
    expect(text(2)).toBe('{"product":"Anvil","price":120}');
    expect(
      tokens
        .filter((t) => t.type === 'reasoning')
        .map((t) => t.delta)
        .join(''),
    ).toBe('Look for a price.');
    expect(fake.calls.every((c) => c.body!.stream === true)).toBe(true);
  });

  it("sends the page's passages that matter, and nothing of another call", async () => {
    const filler = Array.from({ length: 60 }, (_, i) => `## Note ${i}\n\nWeather report number ${i}: mild and dry.`);
    const teamA = [
      '# Acme Anvils',
      '',
      ...filler,
      '## Prices',
      '',
      'The anvil costs 120 euros.',
      '',
      'TEAM-A-SECRET',
    ].join('\n');
    const teamB = '# Bob Bells\n\nA bell costs 15 euros.';
    const p = provider();
    const system = 'Extract the product and its price.';
    const budget = pageTokenBudget(p.limits, [system, JSON.stringify(schema)]) / 4;
    const fitted = fitToTokenBudget(teamA, { query: schemaQueryText(schema), budgetTokens: budget });
    expect(fitted.cut).toBe(true);
    fake.reply({ json: { product: 'Anvil', price: 120 } }, { json: { product: 'Bell', price: 15 } });
    await generateObject(p, { schema, system, prompt: fitted.text });
    await generateObject(p, { schema, system, prompt: teamB });
    const sentA = messages(fake.calls[0]!.body).at(-1)!.text;
    expect(sentA).toContain('# Acme Anvils');
    expect(sentA).toContain('The anvil costs 120 euros.');
    expect(sentA).not.toContain('Weather report number 59');
    const sentB = JSON.stringify(fake.calls[1]!.body);
    expect(sentB).not.toContain('Acme');
    expect(sentB).not.toContain('TEAM-A-SECRET');
    expect(messages(fake.calls[1]!.body)).toHaveLength(2);
  });
});

describe('parseJsonReply', () => {
  it('reads bare JSON, fenced JSON and JSON inside prose, and says why it could not', () => {
    expect(parseJsonReply(' {"a":1} ')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonReply('```\n[1,2]\n```')).toEqual({ ok: true, value: [1, 2] });
    expect(parseJsonReply('The answer is {"a": 2}. Hope that helps!')).toEqual({ ok: true, value: { a: 2 } });
    expect(parseJsonReply('')).toEqual({ ok: false, problem: 'the reply was empty' });
    expect(parseJsonReply('no json here')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^not valid JSON \(/),
    });
  });
});
