import type { RecordSource } from './facts.js';
import { isPlainObject } from './json-schema.js';
import { typesOf, type LinkedNode } from './json-ld.js';
import { type FieldName, keyTerm, keyTokens, withoutNamespace } from './key-names.js';

/** A value on the page with the name it goes by and where it was found. */
export interface Candidate {
  name: FieldName;
  value: unknown;
  /** Nesting depth in its record (0 for a top-level field, -1 for a record itself). */
  depth: number;
  /** `json-ld:Product.offers.price`, `meta:og:title`, `dl:Price`. */
  provenance: string;
  source: RecordSource;
}

const MAX_DEPTH = 4;
const MAX_CANDIDATES = 3000;
const cache = new WeakMap<RecordSource, Candidate[]>();

/** Provenance of rules whose records hold one value (`h1`, `title`): the rule alone. */
const SINGLE_VALUE_RULES = new Set(['h1', 'title']);

/** Every named value of a record: its fields, nested fields of its nodes, and (structured) the record itself by type. */
export function candidatesOf(source: RecordSource): Candidate[] {
  const cached = cache.get(source);
  if (cached) return cached;
  const list = source.structured ? structuredCandidates(source) : flatCandidates(source);
  cache.set(source, list);
  return list;
}

function flatCandidates(source: RecordSource): Candidate[] {
  return Object.entries(source.node).map(([label, value]) => {
    const qualified = keyTerm(label);
    return {
      name: { leaf: withoutNamespace(qualified), qualified, context: new Set<string>() },
      value,
      depth: 0,
      provenance: SINGLE_VALUE_RULES.has(source.rule) ? source.rule : `${source.rule}:${label}`,
      source,
    };
  });
}

function structuredCandidates(source: RecordSource): Candidate[] {
  const list: Candidate[] = [];
  const root = source.node;
  const rootType = typesOf(root)[0] ?? 'Thing';
  const prefix = source.prefix ?? `${source.rule}:${rootType}`;
  const typeTerm = keyTerm(rootType);
  list.push({
    name: { leaf: typeTerm, qualified: typeTerm, context: new Set<string>() },
    value: root,
    depth: -1,
    provenance: prefix,
    source,
  });
  walk(root, [], new Set(keyTokens(typesOf(root).join(' '))), 0, prefix, source, list);
  return list;
}

function walk(
  node: LinkedNode,
  path: string[],
  context: ReadonlySet<string>,
  depth: number,
  prefix: string,
  source: RecordSource,
  list: Candidate[],
): void {
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@') || value === null || value === undefined || value === '') continue;
    if (list.length >= MAX_CANDIDATES) return;
    const leaf = keyTerm(key);
    const parent = path.length > 0 ? keyTerm(path[path.length - 1] as string) : '';
    const childPath = [...path, key];
    list.push({
      name: { leaf, qualified: parent ? `${parent} ${leaf}` : leaf, context },
      value,
      depth,
      provenance: `${prefix}.${childPath.join('.')}`,
      source,
    });
    // Into nested nodes (the first of a list: offers[0], author[0]) for their own fields.
    const nested = Array.isArray(value) ? value.find(isPlainObject) : value;
    if (depth + 1 < MAX_DEPTH && isPlainObject(nested)) {
      const inner = new Set(context);
      for (const token of keyTokens(`${key} ${typesOf(nested).join(' ')}`)) inner.add(token);
      walk(nested, childPath, inner, depth + 1, prefix, source, list);
    }
  }
}

/** Nodes anywhere inside `node` (itself included), with the provenance of the path to each. */
export function nodesWithin(
  node: LinkedNode,
  provenance: string,
  depth = 0,
  out: Array<{ node: LinkedNode; provenance: string }> = [],
): Array<{ node: LinkedNode; provenance: string }> {
  if (depth > 6 || out.length > 2000) return out;
  out.push({ node, provenance });
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@')) continue;
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (isPlainObject(child)) nodesWithin(child, `${provenance}.${key}`, depth + 1, out);
    }
  }
  return out;
}
