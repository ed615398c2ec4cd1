import type { PageAttribute, PageElement } from './page-node.js';

/**
 * A fast path for the selectors cleanup uses most: single compound selectors made of a tag,
 * `#id`, `.class` and attribute tests (`[a]`, `[a=v]`, `[a*=v i]`, `[a^=v]`, `[a$=v]`, `[a~=v]`,
 * `[a|=v]`). They are compiled once per request into lookup tables and tested in one walk of the
 * document. linkedom compiles a selector list with css-select on every query, and testing the
 * ~50 default selectors against every element cost ~5 ms on a 50 KB page; the tables cost well
 * under 1 ms. Selectors outside this grammar (combinators, pseudo-classes) stay with css-select.
 */

interface AttributeTest {
  name: string;
  op: '' | '=' | '*=' | '^=' | '$=' | '~=' | '|=';
  value: string;
  ignoreCase: boolean;
}

interface Compound {
  tag: string | null;
  id: string | null;
  classes: string[];
  attributes: AttributeTest[];
}

export interface CompiledSelectors {
  /** Selectors css-select must handle, joined into one list ('' = none). */
  readonly complex: string;
  /** True when the fast tables hold nothing. */
  readonly empty: boolean;
  matches(element: PageElement): boolean;
}

const PART =
  /#([\w-]+)|\.([\w-]+)|\[\s*([\w:-]+)\s*(?:([*^$~|]?=)\s*(?:"([^"]*)"|'([^']*)'|([^\s"'\]]+))\s*(i)?\s*)?\]/y;
const TAG = /^([a-zA-Z][\w-]*|\*)?/;

/** Parses one compound selector, or returns null when it is outside the fast grammar. */
function parseCompound(selector: string): Compound | null {
  const tagMatch = TAG.exec(selector);
  const tag = tagMatch?.[1];
  const compound: Compound = {
    tag: tag && tag !== '*' ? tag.toUpperCase() : null,
    id: null,
    classes: [],
    attributes: [],
  };
  PART.lastIndex = tagMatch?.[0].length ?? 0;
  while (PART.lastIndex < selector.length) {
    const start = PART.lastIndex;
    const part = PART.exec(selector);
    if (!part || part.index !== start) return null;
    if (part[1]) {
      if (compound.id !== null) return null;
      compound.id = part[1];
    } else if (part[2]) {
      compound.classes.push(part[2]);
    } else {
      const value = part[5] ?? part[6] ?? part[7] ?? '';
      const ignoreCase = part[8] === 'i';
      compound.attributes.push({
        name: (part[3] as string).toLowerCase(),
        op: (part[4] ?? '') as AttributeTest['op'],
        value: ignoreCase ? value.toLowerCase() : value,
        ignoreCase,
      });
    }
  }
  return compound;
}

/** Splits a selector list on top-level commas. */
function splitList(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts.map((part) => part.trim()).filter(Boolean);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Compounds indexed by their most selective part, so an element only meets those that can match it. */
interface SelectorTables {
  byTag: Map<string, Compound[]>;
  byId: Map<string, Compound[]>;
  byClass: Map<string, Compound[]>;
  byAttribute: Map<string, Compound[]>;
  universal: boolean;
  removeClasses: Set<string>;
}

/**
 * Compiles selectors (each may itself be a list) plus class names to remove.
 *
 * @example
 * const compiled = compileSelectors(['script', '.ad', '[id*=cookie-banner i]', 'header:not(article header)'], []);
 * compiled.complex; // 'header:not(article header)'
 */
export function compileSelectors(selectors: readonly string[], classNames: readonly string[]): CompiledSelectors {
  const tables: SelectorTables = {
    byTag: new Map(),
    byId: new Map(),
    byClass: new Map(),
    byAttribute: new Map(),
    universal: false,
    removeClasses: new Set(classNames),
  };
  const complex: string[] = [];
  let count = 0;
  for (const selector of selectors.flatMap(splitList)) {
    const compound = parseCompound(selector);
    if (!compound) {
      complex.push(selector);
      continue;
    }
    count++;
    if (compound.id) push(tables.byId, compound.id, compound);
    else if (compound.classes[0]) push(tables.byClass, compound.classes[0], compound);
    else if (compound.attributes[0]) push(tables.byAttribute, compound.attributes[0].name, compound);
    else if (compound.tag) push(tables.byTag, compound.tag, compound);
    else tables.universal = true;
  }
  const empty = count === 0 && tables.removeClasses.size === 0;
  return {
    complex: complex.join(', '),
    empty,
    matches: (element) => !empty && matchesTables(tables, element),
  };
}

function matchesTables(tables: SelectorTables, element: PageElement): boolean {
  if (tables.universal) return true;
  if (anyMatches(tables.byTag.get(element.nodeName), element)) return true;
  if (!element.hasAttributes()) return false;
  const id = element.getAttribute('id');
  if (id && anyMatches(tables.byId.get(id), element)) return true;
  // Both parses hold `class` as linkedom's token list: distinct tokens, one space apart.
  const className = element.getAttribute('class');
  if (className) {
    for (const name of className.split(' ')) {
      if (tables.removeClasses.has(name) || anyMatches(tables.byClass.get(name), element)) return true;
    }
  }
  if (tables.byAttribute.size > 0) {
    const attributes = element.attributes;
    for (let i = 0; i < attributes.length; i++) {
      const name = (attributes[i] as PageAttribute).name;
      if (anyMatches(tables.byAttribute.get(name.toLowerCase()), element)) return true;
    }
  }
  return false;
}

/** Whether any of `compounds` matches (a loop: this runs for every element of every page). */
function anyMatches(compounds: Compound[] | undefined, element: PageElement): boolean {
  if (!compounds) return false;
  for (const compound of compounds) if (matchesCompound(element, compound)) return true;
  return false;
}

function matchesCompound(element: PageElement, compound: Compound): boolean {
  if (compound.tag !== null && element.nodeName !== compound.tag) return false;
  if (compound.id !== null && element.getAttribute('id') !== compound.id) return false;
  if (compound.classes.length > 0) {
    const classes = ` ${element.getAttribute('class') ?? ''} `.replace(/\s+/g, ' ');
    if (!compound.classes.every((name) => classes.includes(` ${name} `))) return false;
  }
  return compound.attributes.every((test) => matchesAttribute(element.getAttribute(test.name), test));
}

function matchesAttribute(raw: string | null, test: AttributeTest): boolean {
  if (raw === null) return false;
  if (test.op === '') return true;
  const value = test.ignoreCase ? raw.toLowerCase() : raw;
  switch (test.op) {
    case '=':
      return value === test.value;
    case '*=':
      return test.value !== '' && value.includes(test.value);
    case '^=':
      return test.value !== '' && value.startsWith(test.value);
    case '$=':
      return test.value !== '' && value.endsWith(test.value);
    case '~=':
      return test.value !== '' && value.split(/\s+/).includes(test.value);
    default:
      return value === test.value || value.startsWith(`${test.value}-`);
  }
}

/** Removes every element under `root` that `compiled` matches, in one walk (removed subtrees are skipped). */
export function removeMatching(root: PageElement, compiled: CompiledSelectors): void {
  if (compiled.empty) return;
  let element = root.firstElementChild;
  while (element) {
    if (compiled.matches(element)) {
      const next = nextOutside(element, root);
      element.remove();
      element = next;
    } else {
      element = element.firstElementChild ?? nextOutside(element, root);
    }
  }
}

/** The next element in document order that is not inside `element`, staying within `root`. */
function nextOutside(element: PageElement, root: PageElement): PageElement | null {
  for (let current: PageElement | null = element; current && current !== root; current = current.parentElement) {
    if (current.nextElementSibling) return current.nextElementSibling;
  }
  return null;
}
