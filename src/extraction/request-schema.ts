import { AppError } from '../errors.js';
import { schemaFromExample } from './example-shape.js';
import {
  isPlainObject,
  type JsonSchema,
  looksLikeJsonSchema,
  resolveSchema,
  type ResolvedSchema,
} from './json-schema.js';

/** Largest schema a request may send (serialised JSON): it goes into every model prompt. */
export const MAX_SCHEMA_BYTES = 100_000;

/** A requested output shape in both forms the service needs. */
export interface ObjectSchema {
  /** The JSON Schema a model is asked to match (the request's own, or the one its example stands for). */
  json: JsonSchema;
  /** The same resolved for the deterministic extractor. */
  resolved: ResolvedSchema;
}

/**
 * The output shape of `llm_extract.schema`: a JSON Schema whose top level is an object, or an
 * array (a list of products: what clients of the public service send), or an example object
 * such as `{"title": "", "price": 0}` (read as `schemaFromExample` does). A schema of a single
 * value (`{"type": "string"}`), larger than MAX_SCHEMA_BYTES or otherwise unusable is a 400
 * `validation_error` naming `field`.
 *
 * @example
 * objectSchema({ type: 'object', properties: { price: { type: 'number' } } }, 'llm_extract.schema');
 */
export function objectSchema(input: unknown, field: string): ObjectSchema {
  const fail = (problem: string) =>
    new AppError('validation', 'validation_error', `${field}: ${problem}`, { metadata: { field } });
  if (!isPlainObject(input)) throw fail('must be a JSON Schema object');
  const bytes = Buffer.byteLength(JSON.stringify(input));
  if (bytes > MAX_SCHEMA_BYTES) throw fail(`is ${bytes} bytes; at most ${MAX_SCHEMA_BYTES} bytes`);
  if (Object.keys(input).length === 0) throw fail('must describe at least one property');
  const json = looksLikeJsonSchema(input) ? input : schemaFromExample(input);
  const resolved = resolveSchema(json, field);
  if (resolved.type !== 'object' && resolved.type !== 'array') {
    throw fail(
      `must be an object schema ({"type": "object", "properties": {...}}) or an array schema, not a schema of type ${resolved.type}`,
    );
  }
  return { json, resolved };
}
