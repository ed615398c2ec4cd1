/**
 * The field-by-field diff of two extraction results (a monitor's `output_schema` data), as a
 * JSON Patch-like list (RFC 6902 operation names and JSON Pointer paths, RFC 6901 escaping:
 * `~` → `~0`, `/` → `~1`). Each entry says what happened at one path:
 * - `replace`: the value at `path` changed from `from` to `value` (a changed type is a replace);
 * - `add`: `path` holds a new `value`;
 * - `remove`: the value `from` at `path` is gone.
 * `from` carries the previous VALUE (not a source path as in RFC 6902's move/copy, which this
 * list never uses), so a change can be told without the previous document.
 *
 * Arrays compare by identity when every item on both sides is an object with one shared id-like
 * key (`id`, `_id`, `uuid`, `key`, `slug`, `sku`, `url`, `href`, `@id`, tried in that order)
 * whose values are unique strings or numbers: items then match by that key, wherever they
 * moved; a `remove` path is the item's index in the previous array, `add` and `replace` paths
 * index the new array, and a reordering alone is no change. Other arrays compare by index:
 * changed items, then items added at the end, then items removed from the end (highest index
 * first), so that list, unlike keyed diffs, applies in order as an RFC 6902 patch.
 */

export interface DataChange {
  op: 'add' | 'remove' | 'replace';
  path: string;
  from?: unknown;
  value?: unknown;
}

const ID_KEYS = ['id', '_id', 'uuid', 'key', 'slug', 'sku', 'url', 'href', '@id'];
const MAX_DEPTH = 64;

/** Escapes one reference token of a JSON Pointer (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * @example
 * diffData({ price: 19.99, tags: ['a'] }, { price: 17.49, tags: ['a', 'b'] });
 * // [{ op: 'replace', path: '/price', from: 19.99, value: 17.49 }, { op: 'add', path: '/tags/1', value: 'b' }]
 */
export function diffData(before: unknown, after: unknown): DataChange[] {
  const changes: DataChange[] = [];
  compare(before, after, '', 0, changes);
  return changes;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compare(before: unknown, after: unknown, path: string, depth: number, out: DataChange[]): void {
  if (before === after) return;
  if (before === undefined) {
    out.push({ op: 'add', path, value: after });
  } else if (after === undefined) {
    out.push({ op: 'remove', path, from: before });
  } else if (depth >= MAX_DEPTH) {
    if (JSON.stringify(before) !== JSON.stringify(after)) out.push({ op: 'replace', path, from: before, value: after });
  } else if (isObject(before) && isObject(after)) {
    compareObjects(before, after, path, depth, out);
  } else if (Array.isArray(before) && Array.isArray(after)) {
    const key = identityKey(before, after);
    if (key) compareKeyed(before as JsonObject[], after as JsonObject[], key, path, depth, out);
    else compareByIndex(before, after, path, depth, out);
  } else {
    out.push({ op: 'replace', path, from: before, value: after });
  }
}

function compareObjects(before: JsonObject, after: JsonObject, path: string, depth: number, out: DataChange[]): void {
  for (const key of Object.keys(before)) {
    const child = `${path}/${escapePointerToken(key)}`;
    if (Object.hasOwn(after, key)) compare(before[key], after[key], child, depth + 1, out);
    else out.push({ op: 'remove', path: child, from: before[key] });
  }
  for (const key of Object.keys(after)) {
    if (!Object.hasOwn(before, key))
      out.push({ op: 'add', path: `${path}/${escapePointerToken(key)}`, value: after[key] });
  }
}

function compareByIndex(before: unknown[], after: unknown[], path: string, depth: number, out: DataChange[]): void {
  const common = Math.min(before.length, after.length);
  for (let i = 0; i < common; i++) compare(before[i], after[i], `${path}/${i}`, depth + 1, out);
  for (let i = common; i < after.length; i++) out.push({ op: 'add', path: `${path}/${i}`, value: after[i] });
  for (let i = before.length - 1; i >= common; i--) out.push({ op: 'remove', path: `${path}/${i}`, from: before[i] });
}

function compareKeyed(
  before: JsonObject[],
  after: JsonObject[],
  key: string,
  path: string,
  depth: number,
  out: DataChange[],
): void {
  const previous = new Map(before.map((item, index) => [identity(item[key]), { item, index }]));
  const currentIds = new Set(after.map((item) => identity(item[key])));
  const gone = before.flatMap((item, index) => (currentIds.has(identity(item[key])) ? [] : [{ item, index }]));
  for (const { item, index } of gone.reverse()) out.push({ op: 'remove', path: `${path}/${index}`, from: item });
  after.forEach((item, index) => {
    const match = previous.get(identity(item[key]));
    if (match) compare(match.item, item, `${path}/${index}`, depth + 1, out);
    else out.push({ op: 'add', path: `${path}/${index}`, value: item });
  });
}

/** Keeps `1` and `"1"` apart. */
function identity(value: unknown): string {
  return `${typeof value}:${String(value)}`;
}

/** The id-like key every item of both arrays has, with unique string or number values; else null. */
function identityKey(before: unknown[], after: unknown[]): string | null {
  const items = [...before, ...after];
  if (items.length === 0 || !items.every(isObject)) return null;
  return (
    ID_KEYS.find((key) =>
      [before, after].every((list) => {
        const values = (list as JsonObject[]).map((item) => item[key]);
        const valid = values.every((v) => (typeof v === 'string' && v !== '') || typeof v === 'number');
        return valid && new Set(values.map(identity)).size === values.length;
      }),
    ) ?? null
  );
}
