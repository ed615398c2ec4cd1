/**
 * Rules every accepted input value obeys, whatever its schema says, so that no schema (present
 * or future) has to remember them: REST bodies, queries and path parameters and GraphQL
 * arguments all pass through here (src/validation.ts, schema/input-rules-plugin.ts).
 */

/**
 * Objects and arrays nest at most this deep (the request body or the argument list is level 1).
 * Deeper values would overflow the stack of the recursive walks that store them (JSON.stringify).
 */
export const MAX_INPUT_DEPTH = 32;

/** Where an input value breaks a rule: the path to it, and for an object key, the key. */
export interface InputProblem {
  path: (string | number)[];
  key?: string;
  message: string;
}

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string cannot be stored, or null. Postgres refuses U+0000 in text (and `\u0000` in
 * jsonb), and an unpaired UTF-16 surrogate is not Unicode text: jsonb refuses its escape and
 * UTF-8 encoding would silently turn it into U+FFFD.
 */
export function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which cannot be stored';
  if (UNPAIRED_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate (not valid Unicode text)';
  return null;
}

const UNPAIRED_SURROGATES = new RegExp(UNPAIRED_SURROGATE.source, 'g');

/**
 * `value` with every string (and object key) made storable: NUL characters dropped, unpaired
 * surrogates replaced by U+FFFD. For what the service reads from the web (a page's title,
 * links, script output): not client input to refuse, but text to keep.
 */
export function toStorable<T>(value: T): T {
  if (typeof value === 'string') {
    return (unstorable(value) ? value.replaceAll('\u0000', '').replace(UNPAIRED_SURROGATES, '\ufffd') : value) as T;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => toStorable(v)) as T;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [toStorable(k), toStorable(v)])) as T;
}

/** The first object or array nested deeper than `max` levels, or null. Recursion stops at `max`. */
export function depthProblem(value: unknown, max = MAX_INPUT_DEPTH): InputProblem | null {
  const visit = (v: unknown, level: number, path: (string | number)[]): InputProblem | null => {
    if (v === null || typeof v !== 'object') return null;
    if (level > max) return { path, message: `nested more than ${max} levels deep` };
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((item, i) => [i, item]) : Object.entries(v);
    for (const [key, child] of entries) {
      if (child === null || typeof child !== 'object') continue;
      const found = visit(child, level + 1, [...path, key]);
      if (found) return found;
    }
    return null;
  };
  return visit(value, 1, []);
}

/**
 * The first string (value or object key) that cannot be stored, or null. Call it on a value
 * that passed depthProblem: it recurses once per level.
 */
export function stringProblem(value: unknown): InputProblem | null {
  const visit = (v: unknown, path: (string | number)[]): InputProblem | null => {
    if (typeof v === 'string') {
      const message = unstorable(v);
      return message ? { path, message } : null;
    }
    if (v === null || typeof v !== 'object') return null;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const found = visit(v[i], [...path, i]);
        if (found) return found;
      }
      return null;
    }
    for (const [key, child] of Object.entries(v)) {
      const message = unstorable(key);
      if (message) return { path, key, message };
      const found = visit(child, [...path, key]);
      if (found) return found;
    }
    return null;
  };
  return visit(value, []);
}
