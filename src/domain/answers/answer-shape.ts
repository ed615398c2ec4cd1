import {
  looksLikeJsonSchema,
  schemaFromExample,
  toResolvedSchema,
  type ResolvedSchema,
} from '../../extraction/index.js';
import { schemaQueryText } from '../../models/context-budget.js';
import { compileJsonSchema } from '../../models/json-schema.js';
import type { JsonSchema } from '../../models/model-provider.js';

/** How a request's `json_format` shapes the answer. */
export interface AnswerShape {
  /** `object`: keys or a JSON Schema; `described`: a string saying what is wanted; `default`: `{"answer": ""}`. */
  form: 'object' | 'described' | 'default';
  /** What the model's reply must match. */
  schema: JsonSchema;
  /** The same, for the deterministic extractor. */
  resolved: ResolvedSchema;
  /** Words that say what matters, for ranking passages (keys, descriptions). */
  queryText: string;
  /** The description of the `described` form. */
  description: string | null;
}

/**
 * The answer's shape from `json_format` (decisions.md, "Answers"): an object is the output's
 * keys (an example object) or a JSON Schema; a string describes the data, and the answer is
 * `{"answer": …}` with that description; absent (or `{}`) it is `{"answer": ""}`. A string
 * that is a JSON object (`'{"plan": ""}'`, as some clients serialise it) is that object.
 * Invalid shapes are 400s naming `json_format`, before anything is stored.
 *
 * @example
 * answerShape({ plan: '', price: 0 }).schema;
 * // { type: 'object', properties: { plan: { type: ['string', 'null'] }, price: { type: ['number', 'null'] } },
 * //   required: ['plan', 'price'] }
 */
export function answerShape(format: Record<string, unknown> | string | undefined): AnswerShape {
  const jsonFormat = typeof format === 'string' ? (objectInString(format) ?? format) : format;
  if (typeof jsonFormat === 'string') {
    const description = jsonFormat.trim();
    const schema: JsonSchema = {
      type: 'object',
      properties: { answer: { description } },
      required: ['answer'],
    };
    return finish('described', schema, { answer: description }, description);
  }
  if (jsonFormat === undefined || Object.keys(jsonFormat).length === 0) {
    const schema: JsonSchema = {
      type: 'object',
      properties: { answer: { type: 'string', description: 'The answer to the task' } },
      required: ['answer'],
    };
    return finish('default', schema, { answer: '' }, null);
  }
  const schema = looksLikeJsonSchema(jsonFormat) ? jsonFormat : requireAll(schemaFromExample(jsonFormat));
  return finish('object', schema, jsonFormat, null);
}

/** A string holding a JSON object (some clients serialise json_format): that object; null otherwise. */
function objectInString(text: string): Record<string, unknown> | null {
  if (!/^\s*\{/.test(text)) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function finish(
  form: AnswerShape['form'],
  schema: JsonSchema,
  shape: Record<string, unknown>,
  description: string | null,
): AnswerShape {
  compileJsonSchema(schema, 'json_format'); // 400 now rather than a failed answer later
  const resolved = toResolvedSchema(shape, 'json_format');
  return { form, schema, resolved, queryText: schemaQueryText(schema), description };
}

/**
 * Every key of an example object is asked for (null allowed when the sources do not say), so
 * the reply has exactly the example's keys.
 */
function requireAll(schema: JsonSchema): JsonSchema {
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    return { ...schema, items: requireAll(schema.items as JsonSchema) };
  }
  if (schema.type !== 'object' || !schema.properties || typeof schema.properties !== 'object') return schema;
  const properties = Object.fromEntries(
    Object.entries(schema.properties as Record<string, JsonSchema>).map(([key, value]) => {
      const inner = requireAll(value);
      return [key, typeof inner.type === 'string' ? { ...inner, type: [inner.type, 'null'] } : inner];
    }),
  );
  return { ...schema, properties, required: Object.keys(properties) };
}
