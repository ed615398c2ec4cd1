import type { z } from 'zod';

/**
 * Reading the shape of a zod schema: the object fields a value may have under it, seen through
 * wrappers (optional, default, preprocess, transform, ...). Input normalisation that follows a
 * schema (null fields, camelCase keys) walks values with these.
 */
type Def = { type: string; [k: string]: unknown };

export const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The wrapper types around the schema that has a shape, outermost first, and that schema. */
function peel(schema: z.ZodType): { wrappers: string[]; inner: z.ZodType } {
  const wrappers: string[] = [];
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type)) {
      wrappers.push(def.type);
      current = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      // z.preprocess(fn, s) is pipe(transform, s); s.transform(fn) is pipe(s, transform).
      const input = def.in as z.ZodType;
      current = defOf(input).type === 'transform' ? (def.out as z.ZodType) : input;
    } else {
      break;
    }
  }
  return { wrappers, inner: current };
}

/** The schema under optional/nullable/default/pipe/transform wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  return peel(schema).inner;
}

/** Object shapes a value may take under this schema (several for unions). */
export function shapesOf(schema: z.ZodType): Record<string, z.ZodType>[] {
  const def = defOf(unwrap(schema));
  if (def.type === 'object') return [def.shape as Record<string, z.ZodType>];
  if (def.type === 'union') return (def.options as z.ZodType[]).flatMap(shapesOf);
  if (def.type === 'intersection') return [...shapesOf(def.left as z.ZodType), ...shapesOf(def.right as z.ZodType)];
  return [];
}

/** The schema of field `key` in the first of `shapes` that declares it. */
export function fieldOf(shapes: readonly Record<string, z.ZodType>[], key: string): z.ZodType | undefined {
  return shapes.find((shape) => Object.hasOwn(shape, key))?.[key];
}

/**
 * True when a field given as `null` counts as not given: the field may be left out (optional
 * or defaulted) and `null` is not a value of its own. SDKs send `null` for every optional
 * field they do not set; a required field keeps its null and fails naming the field.
 */
export function nullMeansAbsent(field: z.ZodType): boolean {
  const optin = (field as unknown as { _zod: { optin?: string } })._zod.optin;
  return optin !== undefined && !peel(field).wrappers.includes('nullable');
}

/**
 * `value` with every `null` that means "absent" (see nullMeansAbsent) left out, following the
 * schema into nested objects, arrays and unions. Keys of records (metadata, a JSON Schema) are
 * user data: nulls there stay, and the schema judges them.
 */
export function withoutAbsentNulls(schema: z.ZodType, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (Array.isArray(value)) {
    return def.type === 'array' ? value.map((item) => withoutAbsentNulls(def.element as z.ZodType, item)) : value;
  }
  const shapes = shapesOf(inner);
  if (shapes.length === 0) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = fieldOf(shapes, key);
    if (v === null && field && nullMeansAbsent(field)) continue;
    out[key] = field ? withoutAbsentNulls(field, v) : v;
  }
  return out;
}
