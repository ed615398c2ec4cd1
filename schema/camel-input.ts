import { z } from 'zod';
import { defOf, fieldOf, nullMeansAbsent, shapesOf, unwrap } from '../src/schema-shape.js';

const camelToSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * GraphQL speaks camelCase over the same snake_case zod schemas as REST. This wraps a schema
 * so that camelCase keys are renamed to the snake_case keys the schema declares, following the
 * schema's shape (objects, arrays, unions, wrappers). Keys of records (metadata, a JSON Schema)
 * are user data and stay as they are. An optional field given as `null` counts as not given
 * (clients send null for unset optional fields), as in REST (src/schema-shape.ts).
 *
 * @example
 * validate: { schema: z.object({ input: fromCamel(CreateScrapeInput) }) }
 */
export function fromCamel<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>> {
  return z.preprocess((value) => rename(schema, value), schema) as unknown as z.ZodType<z.output<S>>;
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
    const snake = camelToSnake(key);
    const target = fieldOf(shapes, snake) ? snake : key;
    const field = fieldOf(shapes, target);
    if (v === null && field && nullMeansAbsent(field)) continue;
    out[target] = field ? rename(field, v) : v;
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

/**
 * The `validate` option of a field whose `id` argument is checked by the id schema REST uses
 * for the same resource (a `resourceId`): an id that cannot exist (a NUL, too long, ...) is
 * that resource's not-found, as for a REST path parameter.
 *
 * @example
 * scrape: t.field({ args: { id: t.arg.id({ required: true }) }, validate: validateId(ScrapeIdParams.shape.scrape_id) })
 */
export function validateId(id: z.ZodType): { schema: never } {
  return validateWith(z.object({ id }));
}
