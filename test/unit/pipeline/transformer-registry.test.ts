import { describe, expect, it } from 'vitest';
import { builtinTransformers } from '../../../plugins/transformers/index.js';
import { AppError } from '../../../src/errors.js';
import { createTransformerRegistry, resolveTransformer } from '../../../src/pipeline/index.js';
import type { ContentTransformer } from '../../../src/pipeline/index.js';

const firstArticle: ContentTransformer = {
  id: 'first-article',
  transform: ({ document }) => {
    const article = document.querySelector('article');
    return article ? { root: article } : null;
  },
};

describe('transformer registry', () => {
  it('finds transformers by id and alias, case-insensitively', () => {
    const registry = createTransformerRegistry(builtinTransformers);
    expect(registry.get('readability')?.id).toBe('readability');
    expect(registry.get('postlight')?.id).toBe('readability');
    expect(registry.get('Readability')?.id).toBe('readability');
    expect(registry.get('mercury')).toBeUndefined();
    expect(registry.ids()).toEqual(['none', 'readability', 'postlight']);
  });

  it('refuses duplicate ids and aliases, and the reserved id "none"', () => {
    const registry = createTransformerRegistry([firstArticle]);
    expect(() => registry.register(firstArticle)).toThrow(/"first-article" is already registered/);
    expect(() => registry.register({ ...firstArticle, id: 'other', aliases: ['FIRST-ARTICLE'] })).toThrow(
      /already registered/,
    );
    expect(() => registry.register({ ...firstArticle, id: 'none' })).toThrow(/reserved/);
    expect(registry.get('other')).toBeUndefined();
  });

  it('resolves the request field: none/absent = no transformer, unknown = 400 listing the choices', () => {
    const registry = createTransformerRegistry(builtinTransformers);
    expect(resolveTransformer(registry, undefined)).toBeNull();
    expect(resolveTransformer(registry, 'none')).toBeNull();
    expect(resolveTransformer(registry, ' NONE ')).toBeNull();
    expect(resolveTransformer(registry, 'postlight')?.id).toBe('readability');
    let caught: unknown;
    try {
      resolveTransformer(registry, 'mercury');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).detail).toBe(
      'transformer: unknown transformer "mercury"; use one of none, readability, postlight',
    );
    expect((caught as AppError).status).toBe(400);
  });
});
