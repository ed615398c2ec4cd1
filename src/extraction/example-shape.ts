import { AppError } from '../errors.js';
import {
  isPlainObject,
  type JsonSchema,
  looksLikeJsonSchema,
  resolveSchema,
  type ResolvedSchema,
} from './json-schema.js';

const MAX_DEPTH = 8;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * The JSON Schema an example object stands for (answers' `json_format` as an object): its keys
 * are the output keys, its values empty or example values. `""` and `null` → string, numbers →
 * number, booleans → boolean, `[]` → array of strings, `[x]` → array of what `x` stands for,
 * objects → object. A non-empty example string becomes the key's `description` (a matching hint),
 * and an ISO date or an absolute URL there asks for `format: date`/`date-time`/`uri`.
 *
 * @example
 * schemaFromExample({ plans: [{ name: '', price: 0 }] });
 * // { type: 'object', properties: { plans: { type: 'array', items: { type: 'object',
 * //   properties: { name: { type: 'string' }, price: { type: 'number' } } } } } }
 */
export function schemaFromExample(example: unknown, depth = 0): JsonSchema {
  if (depth > MAX_DEPTH)
    throw new AppError('validation', 'validation_error', `json_format nests deeper than ${MAX_DEPTH} levels`);
  if (typeof example === 'number') return { type: 'number' };
  if (typeof example === 'boolean') return { type: 'boolean' };
  if (Array.isArray(example)) {
    return { type: 'array', items: example.length > 0 ? schemaFromExample(example[0], depth + 1) : { type: 'string' } };
  }
  if (isPlainObject(example)) {
    const properties: Record<string, JsonSchema> = {};
    for (const [key, value] of Object.entries(example)) properties[key] = schemaFromExample(value, depth + 1);
    return { type: 'object', properties };
  }
  if (typeof example === 'string' && example.trim()) return stringSchema(example.trim());
  return { type: 'string' };
}

function stringSchema(example: string): JsonSchema {
  if (ISO_DATE.test(example)) return { type: 'string', format: 'date' };
  if (ISO_DATE_TIME.test(example)) return { type: 'string', format: 'date-time' };
  if (/^https?:\/\/\S+$/i.test(example)) return { type: 'string', format: 'uri' };
  return { type: 'string', description: example };
}

/**
 * One entry for both forms a request may use: a JSON Schema (`llm_extract.schema`) or an example
 * object (`json_format`). Throws a 400 `validation_error` naming `field` when it is neither.
 *
 * @example
 * toResolvedSchema({ title: '', price: 0 }, 'json_format'); // an object schema with two keys
 */
export function toResolvedSchema(input: unknown, field: string): ResolvedSchema {
  if (looksLikeJsonSchema(input)) return resolveSchema(input, field);
  if (isPlainObject(input)) return resolveSchema(schemaFromExample(input), field);
  throw new AppError('validation', 'validation_error', `${field}: must be a JSON Schema or an example object`, {
    metadata: { field },
  });
}
