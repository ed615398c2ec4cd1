import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MetadataSchema } from '../../src/domain/shared/metadata.schema.js';
import { AppError } from '../../src/errors.js';
import { MAX_INPUT_DEPTH, parseInput, queryList, resourceId } from '../../src/validation.js';

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

describe('rules every input obeys (src/input-rules.ts)', () => {
  it('refuses NUL and unpaired surrogates in values and keys, naming where', () => {
    expect(detailOf({ items: [{ url: 'https://a.example/\u0000' }] })).toMatch(/^items\[0\]\.url: contains a NUL/);
    expect(detailOf({ metadata: { k: '\ud800' } })).toMatch(/^metadata\.k: contains an unpaired UTF-16 surrogate/);
    expect(detailOf({ metadata: { ['\udc00']: 'v' } })).toMatch(/^metadata: key "\\udc00" contains an unpaired/);
  });
  it('accepts paired surrogates (emoji) and other control characters', () => {
    expect(parseInput(Body, { metadata: { ['🙂']: 'tab\there 🙂' } }).metadata).toEqual({ ['🙂']: 'tab\there 🙂' });
  });
  it('refuses values nested deeper than MAX_INPUT_DEPTH, the body being level 1', () => {
    const Loose = z.looseObject({});
    let deep: unknown = [];
    for (let i = 1; i < MAX_INPUT_DEPTH - 1; i++) deep = [deep];
    expect(() => parseInput(Loose, { x: deep })).not.toThrow();
    expect(() => parseInput(Loose, { x: [deep] })).toThrow(
      `x${'[0]'.repeat(MAX_INPUT_DEPTH - 1)}: nested more than ${MAX_INPUT_DEPTH} levels deep`,
    );
  });
});

describe('null for an optional field', () => {
  const S = z.strictObject({
    a: z.string().optional(),
    b: z.number().default(3),
    c: z.string().nullable().optional(),
    d: z.string(),
    nested: z.looseObject({ e: z.boolean().optional() }).optional(),
    list: z.array(z.object({ f: z.string().optional() })).optional(),
    metadata: MetadataSchema.optional(),
  });
  it('counts as absent, nested objects and arrays included', () => {
    expect(parseInput(S, { a: null, b: null, c: null, d: 'x', nested: { e: null }, list: [{ f: null }] })).toEqual({
      b: 3,
      c: null,
      d: 'x',
      nested: {},
      list: [{}],
    });
  });
  it('stays null for a required field, a record value and an unknown field', () => {
    expect(() => parseInput(S, { d: null })).toThrow(/^d: /);
    expect(() => parseInput(S, { d: 'x', metadata: { k: null } })).toThrow('metadata.k: must be a string (got null)');
    expect(() => parseInput(S, { d: 'x', z: null })).toThrow('z: unknown field');
  });
});

describe('resourceId', () => {
  const P = z.object({ scrape_id: resourceId('scrape') });
  it.each(['a\u0000b', '', 'x'.repeat(101), 'a/b', 'é'])('answers 404 scrape_not_found for %j', (id) => {
    let error: unknown;
    try {
      parseInput(P, { scrape_id: id });
    } catch (err) {
      error = err;
    }
    expect(error).toMatchObject({ kind: 'not_found', code: 'scrape_not_found' });
  });
  it('passes an id that may exist', () => {
    expect(parseInput(P, { scrape_id: 'scrape_abc123' })).toEqual({ scrape_id: 'scrape_abc123' });
  });
});
