import SchemaBuilder from '@pothos/core';
import ZodPlugin from '@pothos/plugin-zod';
import { validationErrorFrom } from '../src/validation.js';
import type { GraphQLContext } from './context.js';
import InputRulesPlugin from './input-rules-plugin.js';

/**
 * The one schema builder. Arguments are validated by the same zod schemas REST uses
 * (through plugin-zod); a failure becomes the same `validation_error` AppError. The input
 * rules of every REST request (null is absent, depth, storable strings) hold for every field
 * through InputRulesPlugin, which must come after ZodPlugin (see its comment).
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: { JSON: { Input: unknown; Output: unknown } };
  DefaultFieldNullability: false;
}>({
  plugins: [ZodPlugin, InputRulesPlugin],
  defaultFieldNullability: false,
  zod: { validationError: (error) => validationErrorFrom(error, '', { camelCase: true }) },
});

builder.scalarType('JSON', {
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
