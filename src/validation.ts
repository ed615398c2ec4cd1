import { z } from 'zod';
import { AppError } from './errors.js';

/** At most this many problems are listed in one validation error's detail. */
const MAX_LISTED = 5;

/**
 * Parses `value` with `schema`, or throws a 400 `validation_error` whose detail names each
 * field (`items[3].url: ...`). REST and GraphQL both validate through here.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, root = ''): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationErrorFrom(result.error, root);
}

export interface IssueFormat {
  /** Name fields in camelCase (GraphQL speaks camelCase over the same snake_case schemas). */
  camelCase?: boolean;
}

export function validationErrorFrom(error: z.ZodError, root = '', format: IssueFormat = {}): AppError {
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
