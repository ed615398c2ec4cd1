import { type Candidate, candidatesOf } from './candidates.js';
import { type CoerceContext, coerceScalar, type Scalar } from './coerce.js';
import type { PageFacts, RecordSource } from './facts.js';
import { fillArray } from './fill-arrays.js';
import { isPlainObject, type ResolvedSchema } from './json-schema.js';
import {
  GENERIC_TERMS,
  HINT_MATCH,
  matchScore,
  PARTIAL_MATCH,
  relatedTerms,
  type RequestedKey,
  requestedKey,
  STRONG_MATCH,
} from './key-names.js';
import { currencyFromText } from './numbers.js';
import { textOf } from './text-values.js';

/** A record the current level may read; `restricted` ones (a page's other items) never answer generic keys like `name`. */
export interface ScopedSource {
  source: RecordSource;
  restricted: boolean;
}

/** Where values may come from at one level of the schema. */
export interface Scope {
  sources: ScopedSource[];
  /** True at page level: page-wide lists and collections may answer arrays. */
  page: boolean;
}

/** What a fill records besides the values. */
export interface FillState {
  facts: PageFacts;
  provenance: Record<string, string>;
  filled: string[];
  empty: string[];
  urls: Set<string>;
}

const PASSES = [STRONG_MATCH, PARTIAL_MATCH, HINT_MATCH];
const CURRENCY = relatedTerms('currency');

/** A key as the schema names it, qualified by its parent when read from the page rather than from a parent node. */
export function requestFor(key: string, schema: ResolvedSchema, qualifier?: string): RequestedKey {
  return requestedKey(qualifier ? `${qualifier} ${key}` : key, schema.description);
}

/** Fills any schema node; `request` is null for the root. */
export function fillAny(
  schema: ResolvedSchema,
  request: RequestedKey | null,
  scope: Scope,
  path: string,
  state: FillState,
  fallback?: { request: RequestedKey; minScore: number },
): unknown {
  if (schema.type === 'object') return fillNestedObject(schema, request, scope, path, state);
  if (schema.type === 'array') return fillArray(schema, request, scope, path, state);
  let value = request ? fillScalar(schema, request, scope, path, state, HINT_MATCH) : null;
  if (value === null && fallback) value = fillScalar(schema, fallback.request, scope, path, state, fallback.minScore);
  (value === null ? state.empty : state.filled).push(path);
  return value;
}

/** Every property of an object schema, each from `scope`. */
export function fillObject(
  schema: ResolvedSchema,
  scope: Scope,
  path: string,
  state: FillState,
  qualifier?: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, property] of schema.properties ?? []) {
    const request = requestFor(key, property, qualifier);
    const plain = qualifier === undefined ? undefined : requestFor(key, property);
    // Read from the whole page, "location.city" may come from a "City" label, but "location.name"
    // must name a location: a generic key is only taken from a field named after its parent.
    const fallback = plain && !GENERIC_TERMS.has(plain.term) ? { request: plain, minScore: HINT_MATCH } : undefined;
    out[key] = fillAny(property, request, scope, path ? `${path}.${key}` : key, state, fallback);
  }
  return out;
}

function fillNestedObject(
  schema: ResolvedSchema,
  request: RequestedKey | null,
  scope: Scope,
  path: string,
  state: FillState,
): Record<string, unknown> {
  if (!request) return fillObject(schema, scope, path, state);
  for (const candidate of matching(request, scope, PARTIAL_MATCH)) {
    const node = nodeOf(candidate);
    if (!node) continue;
    const inner: Scope = {
      sources: [
        {
          source: {
            rule: candidate.source.rule,
            node,
            structured: true,
            url: candidate.source.url,
            prefix: candidate.provenance,
          },
          restricted: false,
        },
      ],
      page: false,
    };
    const trial = scratch(state);
    const value = fillObject(schema, inner, path, trial);
    if (trial.filled.length > 0) {
      merge(state, trial);
      return value;
    }
  }
  return fillObject(schema, scope, path, state, request.key);
}

/** A candidate as a node to read fields from: its object, the first object of its list, or `{name: value}` for a strong text match. */
function nodeOf(candidate: Candidate): Record<string, unknown> | null {
  const value = Array.isArray(candidate.value)
    ? (candidate.value.find(isPlainObject) ?? candidate.value[0])
    : candidate.value;
  if (isPlainObject(value)) return value;
  if (typeof value === 'string' || typeof value === 'number') return { name: value };
  return null;
}

/** Candidates answering `request` in scope order, best first within each source, one pass per score tier. */
export function* matching(request: RequestedKey, scope: Scope, minScore: number): Generator<Candidate> {
  // Scored once per source, best first; each pass then takes its band of scores.
  const ranked = new Map<RecordSource, Array<{ candidate: Candidate; score: number }>>();
  const rank = (source: RecordSource) => {
    let list = ranked.get(source);
    if (!list) {
      list = candidatesOf(source)
        .map((candidate) => ({ candidate, score: matchScore(request, candidate.name) }))
        .filter(({ score }) => score >= minScore)
        .sort(
          (a, b) =>
            b.score - a.score || nested(a.candidate) - nested(b.candidate) || a.candidate.depth - b.candidate.depth,
        );
      ranked.set(source, list);
    }
    return list;
  };
  for (const threshold of PASSES) {
    if (threshold < minScore) break;
    const ceiling = threshold === STRONG_MATCH ? Infinity : (PASSES[PASSES.indexOf(threshold) - 1] ?? Infinity);
    for (const { source, restricted } of scope.sources) {
      if (restricted && GENERIC_TERMS.has(request.term)) continue;
      for (const { candidate, score } of rank(source)) if (score >= threshold && score < ceiling) yield candidate;
    }
  }
}

/** 1 for node values: a scalar field answers a scalar key more directly than a node holding one. */
function nested(candidate: Candidate): number {
  return isPlainObject(candidate.value) ? 1 : 0;
}

function fillScalar(
  schema: ResolvedSchema,
  request: RequestedKey,
  scope: Scope,
  path: string,
  state: FillState,
  minScore: number,
): Scalar | null {
  const context = coerceContext(request, schema, state);
  for (const candidate of matching(request, scope, minScore)) {
    const value = coerceScalar(candidate.value, schema, context);
    if (value !== null) return record(state, path, candidate, value);
  }
  if (CURRENCY.has(request.term) && schema.type === 'string') {
    // No currency field: the symbol printed with the price ("1.299,00 €") names it.
    for (const candidate of matching(requestedKey('price'), scope, STRONG_MATCH)) {
      const text = textOf(candidate.value);
      const currency = text && /\d/.test(text) ? currencyFromText(text) : null;
      if (currency)
        return record(state, path, { ...candidate, provenance: `${candidate.provenance} (currency sign)` }, currency);
    }
  }
  return null;
}

export function coerceContext(request: RequestedKey, schema: ResolvedSchema, state: FillState): CoerceContext {
  return {
    term: request.term,
    description: schema.description,
    language: state.facts.language,
    baseUrl: state.facts.baseUrl,
  };
}

export function record<T>(state: FillState, path: string, candidate: Candidate, value: T): T {
  state.provenance[path] = candidate.provenance;
  if (candidate.source.url) state.urls.add(candidate.source.url);
  return value;
}

/** A state to try a fill in without committing what it records. */
export function scratch(state: FillState): FillState {
  return { facts: state.facts, provenance: {}, filled: [], empty: [], urls: new Set() };
}

export function merge(into: FillState, from: FillState): void {
  Object.assign(into.provenance, from.provenance);
  into.filled.push(...from.filled);
  into.empty.push(...from.empty);
  for (const url of from.urls) into.urls.add(url);
}
