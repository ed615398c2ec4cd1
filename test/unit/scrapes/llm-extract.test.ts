import { describe, expect, it } from 'vitest';
import {
  checkModelRoom,
  MIN_PAGE_TOKENS,
  structuredDataText,
  wrapList,
} from '../../../src/domain/scrapes/llm-extract.js';
import type { ModelProvider } from '../../../src/models/model-provider.js';

const provider = (contextTokens: number, maxOutputTokens = 256) =>
  ({ limits: { contextTokens, maxOutputTokens } }) as unknown as ModelProvider;

describe('llm_extract prompt parts', () => {
  it('keeps whole structured-data items in page order while they fit, skipping one that does not', () => {
    const small = { '@type': 'Product', name: 'Anvil' };
    const big = { '@type': 'Article', body: 'x'.repeat(4000) };
    const last = { '@type': 'Offer', price: 12 };
    expect(structuredDataText([small, big, last], 100)).toBe(`${JSON.stringify(small)}\n${JSON.stringify(last)}`);
    expect(structuredDataText([big], 100)).toBe('');
    expect(structuredDataText([], 100)).toBe('');
  });

  it('wraps a list schema in an object, keeping $schema and $defs at the root where refs point', () => {
    const list = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { P: { type: 'object' } },
      type: 'array',
      items: { $ref: '#/$defs/P' },
    };
    expect(wrapList(list)).toEqual({
      $schema: list.$schema,
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/$defs/P' } } },
      required: ['items'],
      additionalProperties: false,
      $defs: list.$defs,
    });
  });

  it('refuses a schema that leaves the model too little room for the page, naming the setting', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } } };
    expect(() => checkModelRoom(provider(8192), { schema })).not.toThrow();
    expect(() => checkModelRoom(provider(300 + MIN_PAGE_TOKENS, 256), { schema, prompt: 'p'.repeat(2000) })).toThrow(
      /MODEL_CONTEXT_TOKENS/,
    );
  });
});
