import { describe, expect, it } from 'vitest';
import type { ModelProvider } from '../../../src/models/model-provider.js';
import { createModelRegistry } from '../../../src/models/model-registry.js';
import { createSearchRegistry } from '../../../src/search/search-registry.js';
import type { SearchProvider } from '../../../src/search/search-provider.js';

function provider(id: string, closed: string[] = [], fail = false): ModelProvider {
  return {
    id,
    description: id,
    model: 'm',
    limits: { contextTokens: 4096, maxOutputTokens: 256 },
    structuredOutput: 'json_schema',
    generate: () => Promise.reject(new Error('not called')),
    stream: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('not called')) }) }),
    close: async () => {
      closed.push(id);
      if (fail) throw new Error(`${id} failed to close`);
    },
  };
}

describe('model registry', () => {
  it('refuses a duplicate id and an empty one', () => {
    const registry = createModelRegistry([provider('a')]);
    expect(() => registry.register(provider('a'))).toThrow('model provider "a" is already registered');
    expect(() => registry.register(provider(''))).toThrow('model provider id must be a non-empty string');
  });

  it('makes the first provider the default and finds others by id', () => {
    const registry = createModelRegistry([provider('a'), provider('b')]);
    expect(registry.default()?.id).toBe('a');
    expect(registry.require().id).toBe('a');
    expect(registry.require('b').id).toBe('b');
    expect(registry.list().map((p) => p.id)).toEqual(['a', 'b']);
  });

  it('answers 400 for an unknown id, and when no model is configured', () => {
    expect(() => createModelRegistry([provider('a')]).require('gpt')).toThrow(
      'model provider "gpt" does not exist (available: a)',
    );
    const empty = createModelRegistry();
    expect(empty.default()).toBeNull();
    expect(() => empty.require()).toThrow(/no model is configured.*MODEL_BASE_URL/);
  });

  it('closes every provider even when one fails, then reports the failure', async () => {
    const closed: string[] = [];
    const registry = createModelRegistry([provider('a', closed, true), provider('b', closed)]);
    await expect(registry.close()).rejects.toThrow('a failed to close');
    expect(closed.sort()).toEqual(['a', 'b']);
  });
});

describe('search registry', () => {
  const searxng: SearchProvider = { id: 'searxng', description: 'web', search: async () => [] };

  it('refuses duplicates and says how to configure a provider when there is none', () => {
    expect(() => createSearchRegistry([searxng, searxng])).toThrow('search provider "searxng" is already registered');
    expect(() => createSearchRegistry().require(null)).toThrow(/no search provider is configured.*SEARXNG_URL/);
    expect(() => createSearchRegistry([searxng]).require('bing')).toThrow(
      'search provider "bing" does not exist (available: searxng)',
    );
  });
});
