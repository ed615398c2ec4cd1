import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import ZodPlugin from '@pothos/plugin-zod';
import type { AppSchemaTypes, GraphQLBuilder } from '../src/module/graphql.js';
import { validationErrorFrom } from '../src/validation.js';
import InputRulesPlugin from './input-rules-plugin.js';

/**
 * A schema builder: one per schema (each container builds its own; the modules' resolvers
 * close over that container's services). Arguments are validated by the same zod schemas REST
 * uses (through plugin-zod); a failure becomes the same `validation_error` AppError. The input
 * rules of every REST request (null is absent, depth, storable strings) hold for every field
 * through InputRulesPlugin, which must come after ZodPlugin (see its comment). Fields declare
 * their cost (plugin-complexity: paged lists use `pageCost`); the budget is enforced before
 * execution by limits.ts, not by the plugin's per-resolver check.
 */
export function createBuilder(): GraphQLBuilder {
  const builder = new SchemaBuilder<AppSchemaTypes>({
    plugins: [ZodPlugin, InputRulesPlugin, ComplexityPlugin],
    defaultFieldNullability: false,
    complexity: { disabled: true, defaultComplexity: 1, defaultListMultiplier: 10 },
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
  return builder as unknown as GraphQLBuilder;
}
