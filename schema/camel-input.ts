import { z } from 'zod';

const camelToSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * GraphQL speaks camelCase over the same snake_case zod schemas as REST. This wraps a schema
 * so that camelCase keys are renamed to the snake_case keys the schema declares, following the
 * schema's shape (objects, arrays, unions, wrappers). Keys of records (metadata, a JSON Schema)
 * are user data and stay as they are. A field given as `null` counts as not given (GraphQL
 * clients send null for unset optional fields).
 *
 * @example
 * validate: { schema: z.object({ input: fromCamel(CreateScrapeInput) }) }
 */
export function fromCamel<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>> {
  return z.preprocess((value) => rename(schema, value), schema) as unknown as z.ZodType<z.output<S>>;
}

type Def = { type: string; [k: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Unwraps optional/nullable/default/pipe/transform wrappers to the schema that has a shape. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type)) {
      current = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      current = def.in as z.ZodType;
    } else {
      return current;
    }
  }
  return current;
}

/** Object shapes a value may take under this schema (several for unions). */
function shapesOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (def.type === 'object') return [def.shape as Record<string, z.ZodType>];
  if (def.type === 'union') return (def.options as z.ZodType[]).flatMap(shapesOf);
  if (def.type === 'intersection') return [...shapesOf(def.left as z.ZodType), ...shapesOf(def.right as z.ZodType)];
  return [];
}

function rename(schema: z.ZodType, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (Array.isArray(value)) {
    if (def.type !== 'array') return value;
    return value.map((item) => rename(def.element as z.ZodType, item));
  }
  if (def.type === 'record') return value;
  const shapes = shapesOf(inner);
  if (shapes.length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null) continue;
    const snake = camelToSnake(key);
    const shape = shapes.find((s) => snake in s) ?? shapes.find((s) => key in s);
    const target = shape && snake in shape ? snake : key;
    out[target] = shape?.[target] ? rename(shape[target], v) : v;
  }
  return out;
}

/**
 * The `validate` option of a Pothos field whose resolver receives the parsed snake_case command
 * (plugin-zod passes the parsed value on), not the camelCase arguments Pothos types it with.
 */
export function validateWith(schema: z.ZodType): { schema: never } {
  return { schema: schema as never };
}
