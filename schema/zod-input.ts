import type { InputObjectRef } from '@pothos/core';
import type { z } from 'zod';
import type { GraphQLBuilder, InputTypeOptions } from '../src/module/graphql.js';
import { snakeToCamel } from '../src/validation.js';

type Def = { type: string; [k: string]: unknown };
type Ref = InputObjectRef<PothosSchemaTypes.ExtendDefaultTypes<never>, unknown>;
/** A field's GraphQL type: a scalar name, an input type, or a list of one. */
type FieldType = { base: string | Ref; list: boolean };

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);
const INT_FORMATS = new Set(['safeint', 'int32', 'uint32', 'int64', 'uint64']);

/** The schema under optional/default/pipe wrappers, and whether a value may be left out. */
function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean; description?: string } {
  let current = schema;
  let optional = false;
  let description = (schema as { description?: string }).description;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) {
      if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') optional = true;
      current = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      // A preprocess is a pipe from a transform: the schema that judges the value is its output.
      current = (defOf(def.in as z.ZodType).type === 'transform' ? def.out : def.in) as z.ZodType;
    } else {
      break;
    }
    description ??= (current as { description?: string }).description;
  }
  return { inner: current, optional, description };
}

const pascal = (snake: string) => snakeToCamel(snake).replace(/^./, (c) => c.toUpperCase());

/**
 * Renders zod input schemas as GraphQL input types, following their shape: objects become input
 * types with camelCase fields (required unless optional), numbers Int or Float, enums and
 * literals their scalar, arrays lists, records and unknown values JSON. Unions: a union of
 * objects (browser actions) becomes one input type with every variant's fields (the
 * discriminator required); a union with an object (`true` or `{ full_page }`) the object; a
 * union with a list of strings that list; other unions JSON. Each named type is made once per
 * builder (the same name means the same shape: ScrapeOptions inputs are shared).
 */
export function createInputTypes(builder: GraphQLBuilder) {
  const made = new Map<string, Ref>();

  const scalarOf = (def: Def, schema: z.ZodType): string | null => {
    switch (def.type) {
      case 'string':
        return 'String';
      case 'boolean':
        return 'Boolean';
      case 'number': {
        const bag = (schema as unknown as { _zod: { bag: { format?: string } } })._zod.bag;
        const checks = (def.checks as { _zod: { def: { format?: string } } }[] | undefined) ?? [];
        const isInt = INT_FORMATS.has(bag.format ?? '') || checks.some((c) => INT_FORMATS.has(c._zod.def.format ?? ''));
        return isInt ? 'Int' : 'Float';
      }
      case 'enum':
        return 'String';
      case 'literal': {
        const value = (def.values as unknown[])[0];
        return typeof value === 'number' ? 'Float' : typeof value === 'boolean' ? 'Boolean' : 'String';
      }
      default:
        return null;
    }
  };

  const typeOf = (schema: z.ZodType, name: string, options: InputTypeOptions, field: string): FieldType => {
    if (options.json?.includes(field)) return { base: 'JSON', list: false };
    if (options.stringLists?.includes(field)) return { base: 'String', list: true };
    const def = defOf(schema);
    const scalar = scalarOf(def, schema);
    if (scalar) return { base: scalar, list: false };
    if (def.type === 'array') {
      const element = unwrap(def.element as z.ZodType).inner;
      const singular = field.endsWith('s') ? field.slice(0, -1) : field;
      const item = typeOf(element, options.names?.[field] ?? `${pascal(singular)}Input`, options, `${field}[]`);
      return item.list ? { base: 'JSON', list: false } : { base: item.base, list: true };
    }
    const own = (schema as { description?: string }).description;
    if (def.type === 'object') return { base: objectType([schema], name, options, own), list: false };
    if (def.type === 'union') return unionType(def.options as z.ZodType[], name, options, field, own);
    return { base: 'JSON', list: false };
  };

  const unionType = (
    variants: z.ZodType[],
    name: string,
    options: InputTypeOptions,
    field: string,
    description?: string,
  ): FieldType => {
    const inner = variants.map((v) => unwrap(v).inner);
    const objects = inner.filter((v) => defOf(v).type === 'object');
    if (objects.length === inner.length || objects.length === 1) {
      return { base: objectType(objects, name, options, description), list: false };
    }
    const list = inner.find((v) => defOf(v).type === 'array');
    if (list && objects.length === 0) return typeOf(list, name, options, field);
    return { base: 'JSON', list: false };
  };

  /** One input type with the fields of every variant; a field is required only if every variant requires it. */
  const objectType = (variants: z.ZodType[], name: string, options: InputTypeOptions, description?: string): Ref => {
    const existing = made.get(name);
    if (existing) return existing;
    const fields = new Map<string, { schema: z.ZodType; optional: boolean; description?: string; count: number }>();
    for (const variant of variants) {
      for (const [key, value] of Object.entries(defOf(variant).shape as Record<string, z.ZodType>)) {
        if (options.omit?.includes(key)) continue;
        const { inner, optional, description } = unwrap(value);
        const seen = fields.get(key);
        if (seen) {
          seen.optional ||= optional;
          seen.description ??= description;
          seen.count++;
        } else {
          fields.set(key, { schema: inner, optional, description, count: 1 });
        }
      }
    }
    const ref = builder.inputRef<object>(name) as unknown as Ref;
    made.set(name, ref);
    builder.inputType(ref as never, {
      description,
      fields: (t) =>
        Object.fromEntries(
          [...fields].map(([key, spec]) => {
            const nested = options.names?.[key] ?? `${pascal(key)}Input`;
            const type = typeOf(spec.schema, nested, options, key);
            const required = !spec.optional && spec.count === variants.length;
            const base = type.base as never;
            return [
              snakeToCamel(key),
              t.field({
                type: type.list ? [base] : base,
                required: type.list ? { list: required, items: true } : required,
                description: spec.description,
              } as never),
            ];
          }),
        ) as never,
    });
    return ref;
  };

  return {
    /** The input type `name` for `schema` (an object schema, possibly refined). */
    input(schema: z.ZodType, name: string, options: InputTypeOptions = {}): Ref {
      const { inner } = unwrap(schema);
      if (defOf(inner).type !== 'object') throw new Error(`input ${name}: expected an object schema`);
      return objectType([inner], name, options, options.description);
    },
  };
}
