import { SYNONYM_GROUPS } from './synonyms.js';

/**
 * Key names as terms: `datePublished`, `date_published`, `date-published`, "Date published:" and
 * `article:published_time` all become lower-case singular tokens, so names compare regardless of
 * how a schema or a page spells them.
 */

const STOP_WORDS = new Set(
  'a an the of for in on at to and or with by from is are be this that its it as per your our their der die das und von'.split(
    ' ',
  ),
);
/** Namespaces that prefix meta names without changing their meaning (`og:title` is a title). */
const NAMESPACES = new Set([
  'og',
  'twitter',
  'article',
  'product',
  'dc',
  'dcterm',
  'music',
  'video',
  'book',
  'profile',
  'itemprop',
  'schema',
]);

/** Lower-case singular tokens of a key or label. */
export function keyTokens(name: string): string[] {
  const spaced = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  return spaced
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map(singular);
}

const TERMS = new Map<string, string>();

/** The tokens joined by one space: the form every comparison uses (remembered: pages repeat labels). */
export function keyTerm(name: string): string {
  let term = TERMS.get(name);
  if (term === undefined) {
    if (TERMS.size >= 20_000) TERMS.clear();
    term = keyTokens(name).join(' ');
    TERMS.set(name, term);
  }
  return term;
}

/** The term without a leading namespace token (`og title` → `title`). */
export function withoutNamespace(term: string): string {
  const space = term.indexOf(' ');
  return space > 0 && NAMESPACES.has(term.slice(0, space)) ? term.slice(space + 1) : term;
}

function singular(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is|os)$/.test(word)) return word;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

const RELATED = buildRelations();

function buildRelations(): Map<string, Set<string>> {
  const related = new Map<string, Set<string>>();
  for (const group of SYNONYM_GROUPS) {
    const terms = group.map(keyTerm);
    for (const term of terms) {
      const set = related.get(term) ?? new Set<string>();
      for (const other of terms) set.add(other);
      related.set(term, set);
    }
  }
  return related;
}

/** Terms interchangeable with `term` (itself included). */
export function relatedTerms(term: string): ReadonlySet<string> {
  return RELATED.get(term) ?? new Set([term]);
}

/** True when two terms are equal or share a synonym group. */
export function termsRelated(a: string, b: string): boolean {
  return a === b || relatedTerms(a).has(b);
}

/** A requested key, prepared once for the many comparisons a page needs. */
export interface RequestedKey {
  readonly key: string;
  readonly term: string;
  readonly tokens: readonly string[];
  /** The tokens, and the tokens without a unit suffix (`reading time minute` → `reading time`). */
  readonly variants: ReadonlyArray<readonly string[]>;
  readonly related: ReadonlySet<string>;
  /** Content words (and their synonyms) of the schema's `description`: weak hints. */
  readonly hints: ReadonlySet<string>;
}

/**
 * Words a key may end with that say how, not what (`prep_time_minutes`, `price_usd`,
 * `published_at`, `area_sqft`): the key also answers to the name without them.
 */
const SUFFIXES = new Set(
  'minute min hour hr second sec day week month usd eur gbp chf kg g lb oz cm mm km sqft sqm m2 kb mb gb percent pct inch count number amount at on utc iso ts timestamp date'.split(
    ' ',
  ),
);

export function requestedKey(key: string, description?: string): RequestedKey {
  const term = keyTerm(key);
  const tokens = term.split(' ').filter(Boolean);
  const related = new Set(relatedTerms(term));
  const variants: string[][] = [tokens];
  if (tokens.length >= 2 && SUFFIXES.has(tokens[tokens.length - 1] as string)) {
    const base = tokens.slice(0, -1);
    variants.push(base);
    for (const other of relatedTerms(base.join(' '))) related.add(other);
  }
  const hints = new Set<string>();
  if (description) {
    // Content words, and runs of two and three words ("number of reviews" names review counts).
    const all = keyTokens(description);
    const phrases = all.filter((word) => !STOP_WORDS.has(word));
    for (let i = 0; i + 1 < all.length; i += 1) {
      phrases.push(`${all[i]} ${all[i + 1]}`);
      if (i + 2 < all.length) phrases.push(`${all[i]} ${all[i + 1]} ${all[i + 2]}`);
    }
    for (const phrase of phrases) for (const related of relatedTerms(phrase)) hints.add(related);
  }
  return { key, term, tokens, variants, related, hints };
}

/** A field found on the page, named by its path from the record it belongs to. */
export interface FieldName {
  /** Term of the field's own name (`offers.price` → `price`). */
  leaf: string;
  /** Term of the parent key and the leaf (`offer price`); equals `leaf` at the top. */
  qualified: string;
  /** Tokens of the enclosing keys and `@type`s (`JobPosting.hiringOrganization` → job, posting, hiring, organization). */
  context: ReadonlySet<string>;
}

/** Scores at and above which a match is strong (names agree) rather than a guess from parts. */
export const STRONG_MATCH = 80;
export const PARTIAL_MATCH = 60;
export const HINT_MATCH = 40;

/**
 * How well a page field answers a requested key: 100 same name, 90 synonyms, 80 a compound key
 * whose head word names the field and whose other words name its context (`company_name` ←
 * `hiringOrganization.name`), 65 a field whose name ends with the key or, for a one-word key, with
 * a synonym of it (`lowPrice` for `price`, `plan-desc` for `description`),
 * 40 the key's description names the field, 0 otherwise.
 */
export function matchScore(request: RequestedKey, field: FieldName): number {
  if (!field.leaf) return 0;
  if (field.leaf === request.term || field.qualified === request.term) return 100;
  if (request.related.has(field.leaf) || request.related.has(field.qualified)) return 90;
  const tokens = request.tokens;
  const leafTokens = field.leaf.split(' ');
  if (tokens.length >= 2) {
    const last = tokens[tokens.length - 1] as string;
    // "original price" is not any price: the other words must name the field's context.
    const head = tokens.slice(0, -1);
    if (termsRelated(last, field.leaf) && head.every((token) => inContext(token, field.context))) return 80;
  }
  for (const variant of request.variants) {
    const offset = leafTokens.length - variant.length;
    if (offset > 0 && variant.every((token, i) => leafTokens[offset + i] === token)) return 65;
  }
  // `plan-desc` for `description`: the field's last word is a synonym of a one-word key.
  if (
    tokens.length === 1 &&
    leafTokens.length > 1 &&
    termsRelated(tokens[0] as string, leafTokens[leafTokens.length - 1] as string)
  ) {
    return 65;
  }
  // Description words are weak evidence: never enough for a generic field like `name`.
  if (request.hints.has(field.leaf) && !GENERIC_TERMS.has(field.leaf)) return HINT_MATCH;
  return 0;
}

/**
 * How well a heading or caption names a list for `request`: as a field name, or (60) when it
 * starts with the key or a synonym and adds at most three words ("What's new in 4.2", "Benefits
 * for you").
 */
export function headingScore(request: RequestedKey, heading: string): number {
  const term = withoutNamespace(keyTerm(heading));
  if (!term) return 0;
  const score = matchScore(request, { leaf: term, qualified: term, context: new Set(term.split(' ')) });
  if (score > 0) return score;
  for (const related of request.related) {
    if (term.startsWith(`${related} `) && term.split(' ').length - related.split(' ').length <= 3) return PARTIAL_MATCH;
  }
  return 0;
}

function inContext(token: string, context: ReadonlySet<string>): boolean {
  if (context.has(token)) return true;
  for (const related of relatedTerms(token)) if (!related.includes(' ') && context.has(related)) return true;
  return false;
}

/** Generic names that every kind of record has; a record other than the page's main one must not answer them. */
export const GENERIC_TERMS = new Set([
  'name',
  'title',
  'headline',
  'description',
  'url',
  'image',
  'text',
  'id',
  'type',
  'heading',
]);
