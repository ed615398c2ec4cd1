import SchemaBuilder, { BasePlugin, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import {
  getNullableType,
  isInputObjectType,
  isListType,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLResolveInfo,
} from 'graphql';
import { depthProblem, stringProblem } from '../src/input-rules.js';
import { assertInputRule } from '../src/validation.js';

/**
 * The input rules REST applies in `parseInput` (src/validation.ts), for every GraphQL field
 * with arguments, present and future, without a field having to ask:
 *
 * - outermost, before plugin-zod validates: an argument or input-object field given `null`
 *   counts as not given (clients send null for every variable they leave unset), and
 *   arguments nest at most MAX_INPUT_DEPTH levels;
 * - innermost, after plugin-zod (register this plugin after it): no string reaching the
 *   resolver holds a NUL or an unpaired surrogate. After, so that an id argument declared
 *   with `resourceId` answers its resource's not-found first, as REST does.
 *
 * Nulls inside a JSON scalar are left to the zod schema (`fromCamel` drops those of optional fields).
 */
export class InputRulesPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapArgMappers(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    if (!resolver || Object.keys(fieldConfig.args).length === 0) return resolver;
    return (parent, args, context, info) => {
      const given = withoutNullArgs(args as Record<string, unknown>, info);
      assertInputRule(depthProblem(given));
      return resolver(parent, given, context, info);
    };
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    return this.checkStrings(resolver, fieldConfig)!;
  }

  override wrapSubscribe(
    subscribe: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    return this.checkStrings(subscribe, fieldConfig);
  }

  private checkStrings(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    if (!resolver || Object.keys(fieldConfig.args).length === 0) return resolver;
    return (parent, args, context, info) => {
      // plugin-zod hands on the parsed (snake_case) arguments: name them in camelCase again.
      assertInputRule(stringProblem(args), '', { camelCase: true });
      return resolver(parent, args, context, info);
    };
  }
}

function withoutNullArgs(args: Record<string, unknown>, info: GraphQLResolveInfo): Record<string, unknown> {
  const defs = info.parentType.getFields()[info.fieldName]?.args ?? [];
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === null) continue; // GraphQL let it through: the argument is nullable
    const def = defs.find((d) => d.name === name);
    out[name] = def ? withoutNullFields(value, def.type) : value;
  }
  return out;
}

function withoutNullFields(value: unknown, type: GraphQLInputType): unknown {
  const inner = getNullableType(type);
  if (isListType(inner) && Array.isArray(value)) {
    return value.map((item: unknown) => (item === null ? item : withoutNullFields(item, inner.ofType)));
  }
  if (!isInputObjectType(inner) || value === null || typeof value !== 'object') return value;
  const fields = inner.getFields();
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value as Record<string, unknown>)) {
    if (field === null) continue;
    const def = fields[name];
    out[name] = def ? withoutNullFields(field, def.type) : field;
  }
  return out;
}

const pluginName = 'inputRules';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos plugins register their type here
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      inputRules: InputRulesPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, InputRulesPlugin);

export default pluginName;
