import { z } from 'zod';
import { AppError, errors } from './errors.js';
import { depthProblem, stringProblem, type InputProblem } from './input-rules.js';
import { withoutAbsentNulls } from './schema-shape.js';

export { MAX_INPUT_DEPTH } from './input-rules.js';

/** At most this many problems are listed in one validation error's detail. */
const MAX_LISTED = 5;

/**
 * Parses `value` with `schema`, or throws a 400 `validation_error` whose detail names each
 * field (`items[3].url: ...`), or the 404 of a resource id that cannot exist (resourceId).
 * Whatever the schema, `null` for an optional field means absent, values nest at most
 * MAX_INPUT_DEPTH levels and no string holds a NUL or an unpaired surrogate (src/input-rules.ts).
 * REST validates through here; GraphQL applies the same rules in schema/input-rules-plugin.ts.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, root = ''): z.output<S> {
  assertInputRule(depthProblem(value), root);
  const result = schema.safeParse(withoutAbsentNulls(schema, value));
  if (!result.success) throw validationErrorFrom(result.error, root);
  // After the schema: an impossible id is first of all not found (404), not a bad string (400).
  assertInputRule(stringProblem(result.data), root);
  return result.data;
}

export interface IssueFormat {
  /** Name fields in camelCase (GraphQL speaks camelCase over the same snake_case schemas). */
  camelCase?: boolean;
}

/** Throws the 400 naming where `problem` is (a depth or string rule of src/input-rules.ts). */
export function assertInputRule(problem: InputProblem | null, root = '', format: IssueFormat = {}): void {
  if (!problem) return;
  const path = format.camelCase ? problem.path.map((p) => (typeof p === 'string' ? snakeToCamel(p) : p)) : problem.path;
  const where = formatPath(root, path) || root || 'body';
  const detail =
    problem.key === undefined ? problem.message : `key ${JSON.stringify(problem.key.slice(0, 60))} ${problem.message}`;
  throw new AppError('validation', 'validation_error', `${where}: ${detail}`, { metadata: { field: where } });
}

const ID_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;

interface NotFoundParams {
  resource: string;
  label: string;
  id: string;
}

/**
 * The id of a `resource` in a path, query or argument. A value that cannot be an id (anything
 * but 1 to 100 letters, digits, `_` and `-`) is that resource's 404 — the same answer as an id
 * that does not exist — and never reaches a query.
 *
 * @example
 * export const ScrapeIdParams = z.object({ scrape_id: resourceId('scrape') });
 * // GET /v1/scrapes/%00 → 404 scrape_not_found
 */
export function resourceId(resource: string, label = resource) {
  return z.string({ error: 'is required' }).superRefine((id, ctx) => {
    if (ID_SHAPE.test(id)) return;
    const notFound: NotFoundParams = { resource, label, id };
    ctx.addIssue({ code: 'custom', message: `no ${label} has this id`, params: { notFound } });
  });
}

function notFoundIn(error: z.ZodError): AppError | null {
  for (const issue of error.issues) {
    const params = issue.code === 'custom' ? (issue.params as { notFound?: NotFoundParams } | undefined) : undefined;
    if (params?.notFound) return errors.notFound(params.notFound.resource, params.notFound.id, params.notFound.label);
  }
  return null;
}

export function validationErrorFrom(error: z.ZodError, root = '', format: IssueFormat = {}): AppError {
  const notFound = notFoundIn(error);
  if (notFound) return notFound;
  const issues = format.camelCase ? error.issues.map(camelIssue) : error.issues;
  const lines = issues.slice(0, MAX_LISTED).flatMap((issue) => describeIssue(issue, root));
  const more = error.issues.length > MAX_LISTED ? ` (and ${error.issues.length - MAX_LISTED} more)` : '';
  return new AppError('validation', 'validation_error', lines.join('; ') + more, {
    metadata: { field: formatPath(root, issues[0]?.path ?? []) || 'body' },
  });
}

export const snakeToCamel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function camelIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  const path = issue.path.map((p) => (typeof p === 'string' ? snakeToCamel(p) : p));
  if (issue.code === 'unrecognized_keys') return { ...issue, path, keys: issue.keys.map(snakeToCamel) };
  return { ...issue, path };
}

function describeIssue(issue: z.core.$ZodIssue, root: string): string[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => `${formatPath(root, [...issue.path, key])}: unknown field`);
  }
  if (issue.code === 'invalid_key') {
    // A record key failed its schema: name the key, not the value it would hold.
    const key = String(issue.path[issue.path.length - 1]);
    const where = formatPath(root, issue.path.slice(0, -1)) || 'body';
    return issue.issues.map((inner) => `${where}: key ${JSON.stringify(key.slice(0, 60))} ${inner.message}`);
  }
  const where = formatPath(root, issue.path) || root || 'body';
  return [`${where}: ${issue.message}`];
}

/** `items[3].url` from ['items', 3, 'url']. */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * A query-string list accepting all three forms clients send: `f=a&f=b`, `f[]=a`, `f=a,b`.
 * (The query reader strips `[]` and gathers repeats; this splits commas.)
 */
export function queryList<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (v) =>
      v === undefined
        ? undefined
        : (Array.isArray(v) ? v : [v])
            .flatMap((s) => String(s).split(','))
            .map((s) => s.trim())
            .filter(Boolean),
    z.array(item),
  );
}

/** A non-negative integer carried in a query string (`cursor=20`). */
export function queryInt(min: number, max: number) {
  return z
    .string()
    .regex(/^\d+$/, { error: `must be an integer from ${min} to ${max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );
}
