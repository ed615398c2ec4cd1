import { isPlainObject } from './json-schema.js';

/** A JSON-LD node (or a microdata item read into the same shape). */
export type LinkedNode = Record<string, unknown>;

export interface JsonLdResult {
  /** Every top-level node, `@graph` members included, with `{"@id"}` references to other nodes replaced by them. */
  items: LinkedNode[];
  /** One line per `<script>` that could not be read even after repair. */
  errors: string[];
}

const MAX_SCRIPT_CHARS = 2_000_000;

/**
 * Reads every `<script type="application/ld+json">` of a page. Scripts are often broken in ways a
 * browser forgives: HTML comment or CDATA wrappers, trailing commas, raw newlines inside strings,
 * several objects one after another. Those are repaired; what still fails is reported in `errors`
 * and never thrown. `linkReferences: false` keeps `{"@id"}` references as written.
 */
export function readJsonLd(document: Document, options: { linkReferences?: boolean } = {}): JsonLdResult {
  const items: LinkedNode[] = [];
  const errors: string[] = [];
  let index = 0;
  for (const script of document.querySelectorAll('script')) {
    if ((script.getAttribute('type') ?? '').trim().toLowerCase() !== 'application/ld+json') continue;
    index += 1;
    const text = (script.textContent ?? '').slice(0, MAX_SCRIPT_CHARS);
    const parsed = parseLenient(text);
    if (parsed === undefined) {
      errors.push(`JSON-LD script ${index} is not valid JSON`);
      continue;
    }
    collect(parsed, items);
  }
  return { items: options.linkReferences === false ? items : linkReferences(items), errors };
}

/** `JSON.parse`, then the same after repairs; undefined when nothing parses. */
export function parseLenient(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    const repaired = repair(trimmed);
    try {
      return JSON.parse(repaired);
    } catch {
      try {
        // Objects written one after another: `{...}{...}` or `{...}\n{...}`.
        return JSON.parse(`[${repaired.replace(/}\s*{/g, '},{')}]`);
      } catch {
        return undefined;
      }
    }
  }
}

function repair(text: string): string {
  const unwrapped = text
    .replace(/^\s*(?:<!--|\/\/\s*<!\[CDATA\[|<!\[CDATA\[)/, '')
    .replace(/(?:-->|\/\/\s*\]\]>|\]\]>)\s*$/, '')
    .replace(/;\s*$/, '');
  return escapeControlCharacters(unwrapped).replace(/,(\s*[}\]])/g, '$1');
}

/** Raw tabs and newlines inside strings are invalid JSON but common: escaped; outside strings they are whitespace. */
function escapeControlCharacters(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (inString && char === '\\') {
      out += char + (text[i + 1] ?? '');
      i += 1;
      continue;
    }
    if (char === '"') inString = !inString;
    if (inString && char < ' ') out += char === '\n' ? '\\n' : char === '\t' ? '\\t' : ' ';
    else out += char;
  }
  return out;
}

function collect(value: unknown, items: LinkedNode[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, items);
    return;
  }
  if (!isPlainObject(value)) return;
  const graph = value['@graph'];
  if (graph !== undefined) {
    collect(graph, items);
    const rest = Object.keys(value).filter((key) => key !== '@graph' && key !== '@context');
    if (rest.length === 0) return;
    const { '@graph': _graph, ...node } = value;
    items.push(node);
    return;
  }
  items.push(value);
}

/**
 * Yoast and similar generators write `"author": {"@id": "#person"}` (or `{"name", "@id"}`) and put
 * the Person elsewhere in the graph. References are replaced by the node they name, merged with
 * what the reference itself says (one level: the node put in is not walked again, so cycles end).
 */
function linkReferences(items: LinkedNode[]): LinkedNode[] {
  const byId = new Map<string, LinkedNode>();
  for (const item of items) {
    if (typeof item['@id'] === 'string' && Object.keys(item).length > 1) byId.set(item['@id'], item);
  }
  if (byId.size === 0) return items;
  const replace = (value: unknown, depth: number): unknown => {
    if (depth > 8) return value;
    if (Array.isArray(value)) return value.map((item) => replace(item, depth + 1));
    if (!isPlainObject(value)) return value;
    const id = value['@id'];
    const target = typeof id === 'string' ? byId.get(id) : undefined;
    if (target && target !== value) return Object.keys(value).length === 1 ? target : { ...target, ...value };
    const copy: LinkedNode = {};
    for (const [key, child] of Object.entries(value))
      copy[key] = key.startsWith('@') ? child : replace(child, depth + 1);
    return copy;
  };
  return items.map((item) => replace(item, 0) as LinkedNode);
}

/** The node's types, short form: `schema:Product`, `https://schema.org/Product` → `Product`. */
export function typesOf(node: LinkedNode): string[] {
  const raw = node['@type'];
  const list = Array.isArray(raw) ? raw : [raw];
  return list
    .filter((type): type is string => typeof type === 'string' && type.trim() !== '')
    .map((type) => type.trim().replace(/^.*[/#:]/, ''));
}
