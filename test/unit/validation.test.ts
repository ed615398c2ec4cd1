import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MetadataSchema } from '../../src/domain/shared/metadata.schema.js';
import { AppError } from '../../src/errors.js';
import { parseInput, queryList } from '../../src/validation.js';

const Body = z.strictObject({
  metadata: MetadataSchema.optional(),
  items: z.array(z.object({ url: z.url() })).optional(),
});

function detailOf(value: unknown): string {
  try {
    parseInput(Body, value);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('validation_error');
    return (err as AppError).detail;
  }
  throw new Error('expected a validation error');
}

describe('metadata rule', () => {
  it('accepts 50 pairs at the limits', () => {
    const metadata = Object.fromEntries(
      Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]),
    );
    expect(parseInput(Body, { metadata }).metadata).toEqual(metadata);
  });
  it('refuses 51 pairs', () => {
    const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(detailOf({ metadata })).toBe('metadata: at most 50 pairs (got 51)');
  });
  it('refuses a key over 40 characters, naming it', () => {
    expect(detailOf({ metadata: { ['k'.repeat(41)]: 'v' } })).toBe(
      `metadata: key "${'k'.repeat(41)}" is longer than 40 characters`,
    );
  });
  it('refuses a value over 500 characters', () => {
    expect(detailOf({ metadata: { a: 'x'.repeat(501) } })).toBe('metadata.a: is longer than 500 characters');
  });
  it.each([
    [1, 'number'],
    [true, 'boolean'],
    [null, 'null'],
    [['x'], 'array'],
    [{ y: 'z' }, 'object'],
  ])('refuses the non-string value %j', (value, type) => {
    expect(detailOf({ metadata: { a: value } })).toBe(`metadata.a: must be a string (got ${type})`);
  });
  it('refuses a metadata that is not an object', () => {
    expect(detailOf({ metadata: 'x' })).toBe('metadata: must be an object of string keys to string values');
  });
});

describe('validation errors', () => {
  it('name unknown top-level fields', () => {
    expect(detailOf({ metdata: {} })).toBe('metdata: unknown field');
  });
  it('name nested array fields', () => {
    expect(detailOf({ items: [{ url: 'https://a.example' }, { url: 'nope' }] })).toMatch(/^items\[1\]\.url: /);
  });
  it('name the body when it is not an object', () => {
    expect(detailOf([1, 2])).toMatch(/^body: /);
  });
});

describe('queryList', () => {
  const Q = z.object({ formats: queryList(z.enum(['html', 'markdown', 'text'])).optional() });
  it.each([
    [{ formats: ['html', 'markdown'] }, ['html', 'markdown']],
    [{ formats: 'html,markdown' }, ['html', 'markdown']],
    [{ formats: ['html,text', 'markdown'] }, ['html', 'text', 'markdown']],
    [{}, undefined],
  ])('reads %j', (input, expected) => {
    expect(parseInput(Q, input).formats).toEqual(expected);
  });
  it('refuses an unknown member, naming its index', () => {
    expect(() => parseInput(Q, { formats: 'html,pdf' })).toThrow(/formats\[1\]/);
  });
});
