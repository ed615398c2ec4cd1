import { describe, expect, it } from 'vitest';
import { compileJsonSchema } from '../../../src/models/json-schema.js';

const product = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    price: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' } },
    stock: { enum: ['in', 'out'] },
    released: { type: 'string', format: 'date' },
  },
  required: ['name', 'price'],
  additionalProperties: false,
};

describe('compileJsonSchema', () => {
  it('accepts a valid value and lists every problem of an invalid one, with its path', () => {
    const validator = compileJsonSchema(product);
    expect(validator.validate({ name: 'Anvil', price: 120 })).toEqual([]);
    expect(validator.validate({ price: '120', tags: ['a', 2], stock: 'maybe', colour: 'red' })).toEqual([
      "/: must have required property 'name'",
      '/: must not have the property "colour"',
      '/price: must be number',
      '/tags/1: must be string',
      '/stock: must be one of ["in","out"]',
    ]);
  });

  it('treats format as an annotation and ignores unknown keywords', () => {
    const validator = compileJsonSchema({ ...product, 'x-internal': true, example: {} });
    expect(validator.validate({ name: 'Anvil', price: 1, released: 'last spring' })).toEqual([]);
  });

  it('reads draft 2020-12 by default and draft-07 when the schema says so', () => {
    const modern = compileJsonSchema({ $defs: { n: { type: 'number' } }, prefixItems: [{ $ref: '#/$defs/n' }] });
    expect(modern.validate(['x'])).toEqual(['/0: must be number']);
    const draft7 = compileJsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { n: { type: 'number' } },
      items: [{ $ref: '#/definitions/n' }],
    });
    expect(draft7.validate(['x'])).toEqual(['/0: must be number']);
  });

  it('answers 400 naming the field for an invalid schema, an unresolvable $ref or a bad pattern', () => {
    const compile = (schema: unknown) => () => compileJsonSchema(schema, 'json_format');
    expect(compile({ type: 'nope' })).toThrow(expect.objectContaining({ status: 400, code: 'validation_error' }));
    expect(compile({ type: 'nope' })).toThrow(/^json_format: invalid JSON Schema: schema is invalid/);
    expect(compile({ $ref: 'https://example.com/remote.json' })).toThrow(/can't resolve reference/);
    expect(compile({ properties: { a: { pattern: '(' } } })).toThrow(/Invalid regular expression/);
    expect(compile(['not', 'an', 'object'])).toThrow('json_format: must be a JSON Schema object');
  });

  it('reuses the compiled validator for the same schema', () => {
    expect(compileJsonSchema(structuredClone(product))).toBe(compileJsonSchema(structuredClone(product)));
  });

  it('summarises long problem lists', () => {
    const validator = compileJsonSchema({ type: 'array', items: { type: 'number' } });
    const problems = validator.validate(Array.from({ length: 30 }, () => 'x'));
    expect(problems).toHaveLength(21);
    expect(problems.at(-1)).toBe('…and 10 more problems');
  });
});
