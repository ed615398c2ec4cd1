import { type Candidate, nodesWithin } from './candidates.js';
import { coerceScalar, type Scalar, toBoolean } from './coerce.js';
import type { RecordSource } from './facts.js';
import { coerceContext, fillObject, type FillState, matching, merge, record, type Scope, scratch } from './fill.js';
import { isPlainObject, type ResolvedSchema } from './json-schema.js';
import { typesOf, type LinkedNode } from './json-ld.js';
import {
  headingScore,
  keyTerm,
  matchScore,
  PARTIAL_MATCH,
  relatedTerms,
  type RequestedKey,
  STRONG_MATCH,
} from './key-names.js';

const FEATURE = relatedTerms('feature');
const NAMING = new Set(['name', 'title', 'heading', 'label']);
const MAX_ITEMS = 500;

/** An array: of scalars from lists on the page, of objects from lists of records. Never null: `[]` when nothing fits. */
export function fillArray(
  schema: ResolvedSchema,
  request: RequestedKey | null,
  scope: Scope,
  path: string,
  state: FillState,
): unknown[] {
  const items = schema.items ?? { type: 'string' };
  const value =
    items.type === 'object'
      ? objectList(items, request, scope, path, state)
      : scalarList(items, request, scope, path, state);
  (value.length === 0 ? state.empty : state.filled).push(path);
  return value;
}

function scalarList(
  items: ResolvedSchema,
  request: RequestedKey | null,
  scope: Scope,
  path: string,
  state: FillState,
): Scalar[] {
  if (!request) return [];
  const context = coerceContext(request, items, state);
  const read = (values: unknown[]): Scalar[] => {
    const out: Scalar[] = [];
    for (const value of values) {
      const scalar = coerceScalar(value, items, context);
      if (scalar !== null && !out.includes(scalar)) out.push(scalar);
      if (out.length >= MAX_ITEMS) break;
    }
    return out;
  };
  const structured: Scope = { ...scope, sources: scope.sources.filter(({ source }) => source.structured) };
  const flat: Scope = { ...scope, sources: scope.sources.filter(({ source }) => !source.structured) };
  // Names that agree (any source) before names that merely end alike.
  for (const [min, max] of [
    [STRONG_MATCH, Infinity],
    [PARTIAL_MATCH, STRONG_MATCH],
  ] as const) {
    for (const candidate of matching(request, structured, min)) {
      if (matchScore(request, candidate.name) >= max) continue;
      const list = read(listOf(candidate.value, true));
      if (list.length > 0) return record(state, path, candidate, list);
    }
    for (const list of scope.page ? state.facts.lists : []) {
      const score = headingScore(request, list.name);
      const values = score >= min && score < max ? read(list.items) : [];
      if (values.length === 0) continue;
      state.provenance[path] = `${list.rule}:${list.name}`;
      if (list.url) state.urls.add(list.url);
      return values;
    }
    for (const candidate of matching(request, flat, min)) {
      if (matchScore(request, candidate.name) >= max) continue;
      const list = read(listOf(candidate.value, false));
      if (list.length > 0) return record(state, path, candidate, list);
    }
  }
  return FEATURE.has(request.term) ? checkedLabels(flat, items, path, state, read) : [];
}

/**
 * A value as list items: arrays as they are; text split on line breaks, on `;`, `|`, `•` (labels
 * only: in structured text they are punctuation), and on commas when every part is short.
 */
function listOf(value: unknown, structured: boolean): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'string') return [value];
  const parts = value.split(structured ? /\s*\n\s*/ : /\s*(?:\n|;|\||•|·)\s*/).filter(Boolean);
  if (parts.length > 1) return parts;
  const commas = value.split(/\s*,\s*/).filter(Boolean);
  const short = commas.length > 1 && commas.every((part) => part.split(/\s+/).length <= 4);
  return short && !/[.!?]\s/.test(value) ? commas : [value];
}

/** A comparison table's column: the features are the row labels it ticks (✓, "Yes", "Included"). */
function checkedLabels(
  flat: Scope,
  items: ResolvedSchema,
  path: string,
  state: FillState,
  read: (values: unknown[]) => Scalar[],
): Scalar[] {
  for (const { source } of flat.sources) {
    const labels = Object.entries(source.node)
      .filter(([, value]) => toBoolean(value) === true)
      .map(([label]) => label);
    const list = items.type === 'string' ? read(labels) : [];
    if (list.length > 0) {
      state.provenance[path] = `${source.rule}:checked rows`;
      if (source.url) state.urls.add(source.url);
      return list;
    }
  }
  return [];
}

interface ListOption {
  provenance: string;
  sources: RecordSource[];
  /** How well the list's own name answers the key (0 when it has none). */
  nameScore: number;
  structured: boolean;
}

function objectList(
  items: ResolvedSchema,
  request: RequestedKey | null,
  scope: Scope,
  path: string,
  state: FillState,
): unknown[] {
  let best: { score: number; values: unknown[]; trial: FillState; option: ListOption } | null = null;
  for (const option of listOptions(request, scope, state)) {
    const trial = scratch(state);
    const values: unknown[] = [];
    let filled = 0;
    let leaves = 0;
    for (const source of option.sources.slice(0, MAX_ITEMS)) {
      const itemState = scratch(state);
      const value = fillObject(items, { sources: [{ source, restricted: false }], page: false }, path, itemState);
      if (itemState.filled.length === 0) continue;
      // Counted before the heading is added: a heading alone does not make a block an item.
      filled += itemState.filled.length;
      leaves += itemState.filled.length + itemState.empty.length;
      if (!option.structured) nameByHeading(items, headingOf(source.node, request), value, itemState, path);
      for (const url of itemState.urls) trial.urls.add(url);
      values.push(value);
    }
    const ratio = leaves > 0 ? filled / leaves : 0;
    if (values.length === 0 || ratio < 0.25) continue;
    if (!option.structured && option.nameScore < PARTIAL_MATCH && ratio < 0.5) continue;
    const score = ratio * 100 + option.nameScore * 0.5 + (option.structured ? 10 : 0);
    if (!best || score > best.score) best = { score, values, trial, option };
  }
  if (!best) return [];
  merge(state, best.trial);
  state.provenance[path] = best.option.provenance;
  return best.values;
}

/**
 * A block's or column's heading names the item ("Tacos al pastor", "Pro"): when the schema's
 * first text key (`dish`, `plan`, `product`) found nothing and the heading answered no other key,
 * the heading fills it.
 */
function nameByHeading(
  items: ResolvedSchema,
  heading: string | null,
  value: Record<string, unknown>,
  itemState: FillState,
  path: string,
): void {
  const texts = (items.properties ?? []).filter(
    ([, property]) => property.type === 'string' && !property.format && !property.enum,
  );
  // The item's name: a key called name/title, else the first text key.
  const first = texts.find(([key]) => NAMING.has(keyTerm(key))) ?? texts[0];
  if (!heading || !first || value[first[0]] !== null) return;
  if (Object.values(value).some((filled) => filled === heading)) return;
  value[first[0]] = heading;
  const key = `${path}.${first[0]}`;
  itemState.empty = itemState.empty.filter((empty) => empty !== key);
  itemState.filled.push(key);
}

/** A record's heading: its block heading, or the cell of the column named after the list (`Module` in `modules`). */
function headingOf(node: LinkedNode, request: RequestedKey | null): string | null {
  if (typeof node.heading === 'string') return node.heading;
  if (!request) return null;
  const label = Object.keys(node).find((key) => keyTerm(key) === request.term);
  const value = label === undefined ? undefined : node[label];
  return typeof value === 'string' ? value : null;
}

/** Every list of records that could answer the key: matching fields of nodes, typed nodes, tables and repeated blocks. */
function listOptions(request: RequestedKey | null, scope: Scope, state: FillState): ListOption[] {
  const options: ListOption[] = [];
  if (request) {
    for (const candidate of matching(request, scope, PARTIAL_MATCH)) {
      if (!candidate.source.structured) continue;
      const sources = recordsOf(candidate);
      if (sources.length > 0) {
        options.push({
          provenance: candidate.provenance,
          sources,
          nameScore: matchScore(request, candidate.name),
          structured: true,
        });
      }
    }
  }
  if (!scope.page) return options;
  options.push(...typedNodes(request, scope));
  for (const collection of state.facts.collections) {
    const nameScore = request ? headingScore(request, collection.name) : 0;
    options.push({
      provenance: collection.name ? `${collection.rule}:${collection.name}` : collection.rule,
      sources: collection.records.map((node) => ({
        rule: collection.rule,
        node,
        structured: false,
        url: collection.url,
      })),
      nameScore,
      structured: false,
    });
  }
  return options;
}

function recordsOf(candidate: Candidate): RecordSource[] {
  const values = Array.isArray(candidate.value) ? candidate.value : [candidate.value];
  const sources: RecordSource[] = [];
  values.forEach((value, index) => {
    const node: LinkedNode | null = isPlainObject(value) ? value : typeof value === 'string' ? { name: value } : null;
    if (!node) return;
    const prefix = Array.isArray(candidate.value) ? `${candidate.provenance}[${index}]` : candidate.provenance;
    sources.push({ rule: candidate.source.rule, node, structured: true, url: candidate.source.url, prefix });
  });
  return sources;
}

/** Nodes whose `@type` names the key (`jobs` → every JobPosting), grouped by type; without a key every type is an option. */
function typedNodes(request: RequestedKey | null, scope: Scope): ListOption[] {
  const byType = new Map<string, ListOption>();
  const seen = new Set<LinkedNode>();
  for (const { source } of scope.sources) {
    if (!source.structured) continue;
    for (const { node, provenance } of nodesWithin(
      source.node,
      source.prefix ?? `${source.rule}:${typesOf(source.node)[0] ?? 'Thing'}`,
    )) {
      const type = typesOf(node)[0];
      if (!type || seen.has(node)) continue;
      const term = keyTerm(type);
      const nameScore = request ? matchScore(request, { leaf: term, qualified: term, context: new Set() }) : 0;
      if (request && nameScore < 65) continue;
      seen.add(node);
      const option = byType.get(type) ?? {
        provenance: `${source.rule}:${type}`,
        sources: [],
        nameScore,
        structured: true,
      };
      option.sources.push({ rule: source.rule, node, structured: true, url: source.url, prefix: provenance });
      byType.set(type, option);
    }
  }
  return [...byType.values()];
}
