import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { errors } from '../errors.js';
import type { JsonSchema } from './model-provider.js';

/**
 * Validates values against a client's JSON Schema (ajv 8). Draft 2020-12 by default; a schema
 * whose `$schema` names draft-07, -06 or -04 is read as draft-07. `format` is an annotation
 * only (as draft 2020-12 defines it): a model writing a date another way is not an error.
 * Unknown keywords are ignored, remote `$ref`s are never fetched (an unresolvable `$ref` is a
 * 400), and nothing is coerced or defaulted: the value is checked as the model wrote it.
 *
 * @example
 * const validator = compileJsonSchema(body.schema, 'llm_extract.schema'); // 400 when the schema is invalid
 * validator.validate({ price: '12' }); // ['/price: must be number']
 */
export interface SchemaValidator {
  readonly schema: JsonSchema;
  /** Problems of `value`, one line each (`/items/0/name: must be string`); empty when it is valid. */
  validate(value: unknown): string[];
}

/** Problems listed at most; the rest are summarised, so a repair prompt stays small. */
const MAX_PROBLEMS = 20;
/** Compiled schemas kept; monitors and schedules reuse the same schema on every run. */
const CACHE_SIZE = 200;

const ajvOptions = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  addUsedSchema: false,
  logger: false as const,
};
const draft2020 = new Ajv2020(ajvOptions);
const draft07 = new Ajv(ajvOptions);
const cache = new Map<string, { validator: SchemaValidator; release: () => void }>();

/** Compiles `schema`, or throws 400 `validation_error` naming `field` and what is wrong with it. */
export function compileJsonSchema(schema: unknown, field = 'schema'): SchemaValidator {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw errors.validation(`${field}: must be a JSON Schema object`);
  }
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) {
    // Refresh its place: the map's order is the eviction order.
    cache.delete(key);
    cache.set(key, hit);
    return hit.validator;
  }
  const { $schema, ...rest } = schema as JsonSchema;
  const ajv = typeof $schema === 'string' && /draft-0[467]/.test($schema) ? draft07 : draft2020;
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(rest);
  } catch (err) {
    throw errors.validation(`${field}: invalid JSON Schema: ${(err as Error).message}`);
  }
  const validator: SchemaValidator = {
    schema: schema as JsonSchema,
    validate: (value) => (validate(value) ? [] : describeProblems(validate.errors ?? [])),
  };
  cache.set(key, { validator, release: () => ajv.removeSchema(rest) });
  if (cache.size > CACHE_SIZE) {
    const [oldest, entry] = cache.entries().next().value!;
    cache.delete(oldest);
    entry.release();
  }
  return validator;
}

function describeProblems(found: ErrorObject[]): string[] {
  const lines = found.slice(0, MAX_PROBLEMS).map(describe);
  if (found.length > MAX_PROBLEMS) lines.push(`…and ${found.length - MAX_PROBLEMS} more problems`);
  return lines;
}

function describe(error: ErrorObject): string {
  const at = error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    return `${at}: must not have the property ${JSON.stringify(params.additionalProperty)}`;
  }
  if (error.keyword === 'enum') return `${at}: must be one of ${JSON.stringify(params.allowedValues)}`;
  if (error.keyword === 'const') return `${at}: must be ${JSON.stringify(params.allowedValue)}`;
  return `${at}: ${error.message ?? error.keyword}`;
}
