import { AppError } from '../errors.js';

/**
 * The part of JSON Schema the extractor acts on. Requests carry schemas written by hand, by
 * pydantic (`$defs` + `$ref`, `anyOf: [X, {type: null}]`) or by zod-to-json-schema; they are
 * resolved once into this closed form, so the filling code never meets a `$ref` or a union.
 */
export type SchemaType = 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean';

export interface ResolvedSchema {
  type: SchemaType;
  /** Object properties in the order the schema lists them. */
  properties?: Array<[string, ResolvedSchema]>;
  /** Array items. */
  items?: ResolvedSchema;
  description?: string;
  enum?: ReadonlyArray<string | number | boolean>;
  /** `date`, `date-time`, `uri`, `email`, `duration`, ... */
  format?: string;
  /** The schema's `title` (a hint for the object or list it describes). */
  title?: string;
}

/** A JSON Schema as a client sends it. */
export type JsonSchema = Record<string, unknown>;

const TYPES = new Set<string>(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
const MAX_DEPTH = 8;
const MAX_PROPERTIES = 500;

/** The request's schema cannot be used; `field` names where it came from (`llm_extract.schema`). */
function invalid(field: string, path: string, problem: string): AppError {
  const where = path ? `${field}${path}` : field;
  return new AppError('validation', 'validation_error', `${where}: ${problem}`, { metadata: { field } });
}

/** True when `value` reads as a JSON Schema rather than an example object (see `toResolvedSchema`). */
export function looksLikeJsonSchema(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const type = value.type;
  const typed =
    (typeof type === 'string' && TYPES.has(type)) ||
    (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && TYPES.has(t)));
  const hasProperties = isPlainObject(value.properties) && Object.values(value.properties).every(isPlainObject);
  return (
    typed || hasProperties || typeof value.$ref === 'string' || Array.isArray(value.anyOf) || Array.isArray(value.oneOf)
  );
}

/**
 * Resolves a JSON Schema (local `$ref`s into `$defs`/`definitions`, `anyOf`/`oneOf` with `null`,
 * one-element `allOf`, `type` arrays, missing `type` inferred from `properties`/`items`/`enum`).
 * Throws a 400 `validation_error` naming `field` for anything that is not a usable schema.
 *
 * @example
 * resolveSchema({ type: 'object', properties: { price: { type: ['number', 'null'] } } }, 'llm_extract.schema');
 * // { type: 'object', properties: [['price', { type: 'number' }]] }
 */
export function resolveSchema(schema: unknown, field: string): ResolvedSchema {
  if (!isPlainObject(schema)) throw invalid(field, '', 'must be a JSON Schema object');
  const state = { root: schema, field, count: 0 };
  return resolveNode(schema, '', 0, state);
}

interface ResolveState {
  root: JsonSchema;
  field: string;
  count: number;
}

function resolveNode(node: unknown, path: string, depth: number, state: ResolveState): ResolvedSchema {
  if (depth > MAX_DEPTH) throw invalid(state.field, path, `nests deeper than ${MAX_DEPTH} levels`);
  if (node === true || (isPlainObject(node) && Object.keys(node).length === 0)) return { type: 'string' };
  if (!isPlainObject(node)) throw invalid(state.field, path, 'must be a schema object');
  const target = unwrap(node, path, state, depth);
  const type = schemaType(target, path, state.field);
  const resolved: ResolvedSchema = { type };
  copyHints(target, node, resolved);
  if (type === 'object') resolved.properties = resolveProperties(target, path, depth, state);
  if (type === 'array') {
    resolved.items =
      target.items === undefined ? { type: 'string' } : resolveNode(target.items, `${path}.items`, depth + 1, state);
  }
  if (Array.isArray(target.enum)) {
    const options = target.enum.filter((value): value is string | number | boolean =>
      ['string', 'number', 'boolean'].includes(typeof value),
    );
    if (options.length > 0) resolved.enum = options;
  }
  return resolved;
}

/** Follows `$ref`, picks the non-null branch of `anyOf`/`oneOf`, merges a one-element `allOf`. */
function unwrap(node: JsonSchema, path: string, state: ResolveState, depth: number): JsonSchema {
  let current = node;
  for (let hops = 0; hops < 16; hops += 1) {
    if (typeof current.$ref === 'string') {
      const { $ref, ...rest } = current;
      current = { ...lookupRef($ref as string, path, state), ...rest };
      continue;
    }
    const union = (current.anyOf ?? current.oneOf) as unknown;
    if (Array.isArray(union)) {
      const branches = union.filter((branch) => !(isPlainObject(branch) && branch.type === 'null'));
      if (branches.length === 0) throw invalid(state.field, path, 'anyOf/oneOf allows only null');
      const { anyOf: _a, oneOf: _o, ...rest } = current;
      const first = branches[0];
      current = isPlainObject(first) ? { ...first, ...rest } : rest;
      continue;
    }
    if (Array.isArray(current.allOf) && current.allOf.every(isPlainObject)) {
      const { allOf, ...rest } = current;
      current = Object.assign({}, ...(allOf as JsonSchema[]), rest) as JsonSchema;
      continue;
    }
    return current;
  }
  throw invalid(state.field, path, `$ref chain is too long or cyclic (depth ${depth})`);
}

function lookupRef(ref: string, path: string, state: ResolveState): JsonSchema {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const defs = match ? state.root[match[1] as string] : undefined;
  const target = match && isPlainObject(defs) ? defs[refName(match[2] as string)] : undefined;
  if (!isPlainObject(target))
    throw invalid(
      state.field,
      path,
      `$ref ${JSON.stringify(ref)} does not resolve (only local #/$defs/... and #/definitions/... refs are followed)`,
    );
  return target;
}

/** A `$defs` name from a ref (`%24` escapes decoded; a malformed escape is kept as written). */
function refName(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function schemaType(node: JsonSchema, path: string, field: string): SchemaType {
  const declared = Array.isArray(node.type) ? node.type.filter((t) => t !== 'null') : [node.type];
  const type = declared[0];
  if (type === undefined) {
    if (isPlainObject(node.properties)) return 'object';
    if (node.items !== undefined) return 'array';
    if (Array.isArray(node.enum) && node.enum.length > 0 && node.enum.every((v) => typeof v === 'number'))
      return 'number';
    return 'string';
  }
  if (typeof type !== 'string' || !TYPES.has(type) || type === 'null') {
    throw invalid(field, path, `unsupported type ${JSON.stringify(node.type)}`);
  }
  return type as SchemaType;
}

function copyHints(target: JsonSchema, original: JsonSchema, resolved: ResolvedSchema): void {
  const description = original.description ?? target.description;
  if (typeof description === 'string' && description.trim()) resolved.description = description.trim();
  const title = original.title ?? target.title;
  if (typeof title === 'string' && title.trim()) resolved.title = title.trim();
  if (typeof target.format === 'string') resolved.format = target.format.toLowerCase();
}

function resolveProperties(
  node: JsonSchema,
  path: string,
  depth: number,
  state: ResolveState,
): Array<[string, ResolvedSchema]> {
  const properties = node.properties ?? {};
  if (!isPlainObject(properties)) throw invalid(state.field, path, '"properties" must be an object');
  const entries: Array<[string, ResolvedSchema]> = [];
  for (const [key, value] of Object.entries(properties)) {
    state.count += 1;
    if (state.count > MAX_PROPERTIES) throw invalid(state.field, path, `has more than ${MAX_PROPERTIES} properties`);
    entries.push([key, resolveNode(value, `${path}.${key}`, depth + 1, state)]);
  }
  return entries;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
