import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors.js';
import { thrownBy } from '../../support/thrown.js';
import {
  looksLikeJsonSchema,
  resolveSchema,
  schemaFromExample,
  toResolvedSchema,
} from '../../../src/extraction/index.js';

function rejection(fn: () => unknown): AppError {
  return thrownBy(fn, AppError);
}

describe('requested schemas', () => {
  it('resolves pydantic-style schemas: $defs, $ref, anyOf with null, type arrays, titles and formats', () => {
    const schema = resolveSchema(
      {
        title: 'Event',
        type: 'object',
        properties: {
          name: { title: 'Name', type: 'string' },
          start: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }], default: null },
          venue: { $ref: '#/$defs/Venue', description: 'where it happens' },
          tags: { type: 'array', items: { type: ['string', 'null'] } },
        },
        $defs: { Venue: { type: 'object', properties: { city: { type: 'string' } } } },
      },
      'llm_extract.schema',
    );
    expect(schema).toEqual({
      type: 'object',
      title: 'Event',
      properties: [
        ['name', { type: 'string', title: 'Name' }],
        ['start', { type: 'string', format: 'date-time' }],
        ['venue', { type: 'object', description: 'where it happens', properties: [['city', { type: 'string' }]] }],
        ['tags', { type: 'array', items: { type: 'string' } }],
      ],
    });
  });

  it('infers missing types from properties, items and enums, merges a one-element allOf, follows #/definitions', () => {
    const schema = resolveSchema(
      {
        properties: {
          a: { properties: { b: {} } },
          list: { items: { enum: [1, 2] } },
          kind: { enum: ['x', 'y'] },
          merged: { allOf: [{ $ref: '#/definitions/Price' }] },
        },
        definitions: { Price: { type: 'number' } },
      },
      'f',
    );
    expect(schema.properties).toEqual([
      ['a', { type: 'object', properties: [['b', { type: 'string' }]] }],
      ['list', { type: 'array', items: { type: 'number', enum: [1, 2] } }],
      ['kind', { type: 'string', enum: ['x', 'y'] }],
      ['merged', { type: 'number' }],
    ]);
  });

  it('refuses what is not a usable schema with a 400 naming the field and the place', () => {
    const cases: Array<[unknown, RegExp]> = [
      ['a string', /^llm_extract\.schema: must be a JSON Schema object$/],
      [{ type: 'object', properties: { a: { type: 'date' } } }, /^llm_extract\.schema\.a: unsupported type "date"$/],
      [
        { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } },
        /\.a: \$ref "#\/\$defs\/Missing" does not resolve/,
      ],
      [{ type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }, /does not resolve/],
      [{ $ref: '#/$defs/A', $defs: { A: { $ref: '#/$defs/A' } } }, /too long or cyclic/],
      [{ type: 'object', properties: { a: { anyOf: [{ type: 'null' }] } } }, /\.a: anyOf\/oneOf allows only null/],
      [{ type: 'object', properties: 'nope' }, /must be a JSON Schema object|"properties" must be an object/],
    ];
    for (const [input, message] of cases) {
      const error = rejection(() => resolveSchema(input, 'llm_extract.schema'));
      expect(error.status).toBe(400);
      expect(error.code).toBe('validation_error');
      expect(error.detail).toMatch(message);
      expect(error.metadata).toEqual({ field: 'llm_extract.schema' });
    }
  });

  it('bounds nesting and size so a hostile schema cannot make the extractor work forever', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 12; i += 1) deep = { type: 'object', properties: { x: deep } };
    expect(rejection(() => resolveSchema(deep, 's')).detail).toMatch(/deeper than 8 levels/);
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`k${i}`, {}])),
    };
    expect(rejection(() => resolveSchema(wide, 's')).detail).toMatch(/more than 500 properties/);
  });
});

describe('example objects (answers json_format)', () => {
  it('turns an example object into the schema it stands for', () => {
    expect(
      schemaFromExample({
        plan: '',
        price: 0,
        free: false,
        notes: null,
        plans: [{ name: '', features: [] }],
        published: '2024-01-31',
        updated: '2024-01-31T10:00:00Z',
        website: 'https://example.com',
        summary: 'one sentence about the product',
      }),
    ).toEqual({
      type: 'object',
      properties: {
        plan: { type: 'string' },
        price: { type: 'number' },
        free: { type: 'boolean' },
        notes: { type: 'string' },
        plans: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, features: { type: 'array', items: { type: 'string' } } },
          },
        },
        published: { type: 'string', format: 'date' },
        updated: { type: 'string', format: 'date-time' },
        website: { type: 'string', format: 'uri' },
        summary: { type: 'string', description: 'one sentence about the product' },
      },
    });
  });

  it('tells schemas from examples, including examples with a "type" or "properties" key', () => {
    expect(looksLikeJsonSchema({ type: 'object', properties: { a: { type: 'string' } } })).toBe(true);
    expect(looksLikeJsonSchema({ properties: { a: {} } })).toBe(true);
    expect(looksLikeJsonSchema({ $ref: '#/$defs/A' })).toBe(true);
    expect(looksLikeJsonSchema({ type: '', name: '' })).toBe(false);
    expect(looksLikeJsonSchema({ type: 'apartment', rooms: 0 })).toBe(false);
    expect(looksLikeJsonSchema({ properties: '', owner: '' })).toBe(false);
    expect(toResolvedSchema({ type: '', price: 0 }, 'json_format').properties).toEqual([
      ['type', { type: 'string' }],
      ['price', { type: 'number' }],
    ]);
    expect(rejection(() => toResolvedSchema(['a'], 'json_format')).detail).toBe(
      'json_format: must be a JSON Schema or an example object',
    );
  });
});
