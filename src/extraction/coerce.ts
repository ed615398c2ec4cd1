import { emailsInText } from './contact-points.js';
import { durationMinutes, formatDate, isoDuration, parseDate } from './dates.js';
import { isPlainObject, type ResolvedSchema } from './json-schema.js';
import { keyTerm, keyTokens, relatedTerms } from './key-names.js';
import { currencyFromText, parseNumber } from './numbers.js';
import { textOf, urlOf } from './text-values.js';

/** What coercion needs to know besides the value: the key it fills and the page it came from. */
export interface CoerceContext {
  /** Term of the requested key (`prep time minute`). */
  term: string;
  description?: string;
  /** The page's language (decimal commas, day-first dates). */
  language?: string;
  baseUrl?: URL;
}

export type Scalar = string | number | boolean;

const URL_TERMS = new Set([
  'url',
  'link',
  'website',
  'homepage',
  'image',
  'logo',
  'photo',
  'picture',
  'thumbnail',
  'href',
  'src',
  'poster',
  'cover',
  'avatar',
  'profile',
]);
const URL_FORMATS = new Set(['uri', 'url', 'iri', 'uri-reference', 'iri-reference']);
const CURRENCY = relatedTerms('currency');
const ISO_DURATION = /^P(?:\d|T\d)/i;
const EMAIL = relatedTerms('email');

/** True when a key asks for a URL (by its format or its name). */
export function wantsUrl(schema: ResolvedSchema, term: string): boolean {
  if (schema.format && URL_FORMATS.has(schema.format)) return true;
  const tokens = term.split(' ');
  return URL_TERMS.has(tokens[tokens.length - 1] as string);
}

/**
 * `value` (a string, number, boolean, JSON-LD node or array of those) as the scalar `schema` asks
 * for, or null when it cannot be read as one. Never guesses: "Contact us" is no price, "Spring
 * 2025" is no date, a value outside the enum is null.
 *
 * @example
 * coerceScalar('1.299,00 €', { type: 'number' }, { term: 'price', language: 'de' }); // 1299
 * coerceScalar('https://schema.org/InStock', { type: 'boolean' }, { term: 'in stock' }); // true
 */
export function coerceScalar(value: unknown, schema: ResolvedSchema, context: CoerceContext): Scalar | null {
  switch (schema.type) {
    case 'number':
    case 'integer':
      return withEnum(toNumber(value, schema, context), schema);
    case 'boolean':
      return toBoolean(value);
    default:
      return toText(value, schema, context);
  }
}

function toText(value: unknown, schema: ResolvedSchema, context: CoerceContext): string | null {
  const urlish = wantsUrl(schema, context.term);
  const text = textOf(value, urlish);
  if (!text) return null;
  const format = schema.format;
  if (format === 'date' || format === 'date-time' || format === 'time') {
    const parts = parseDate(text, context.language);
    return parts ? formatDate(parts, format) : null;
  }
  if (format === 'duration') {
    if (/^P(?=\d|T\d)/i.test(text)) return text.toUpperCase();
    const minutes = durationMinutes(text);
    return minutes === null ? null : isoDuration(minutes);
  }
  if (format === 'email' || format === 'idn-email' || EMAIL.has(context.term)) {
    const email = emailsInText(text.replace(/^mailto:/i, ''))[0];
    return email ?? (format ? null : text);
  }
  if (urlish) return urlOf(text, context.baseUrl) ?? (schema.format ? null : text);
  // schema.org enumeration members (`https://schema.org/Monday`) read as their name.
  const member = /^https?:\/\/schema\.org\/([A-Za-z]+)$/.exec(text);
  if (member && !schema.enum) return member[1] as string;
  if (schema.enum) return matchEnum(text, schema.enum);
  if (CURRENCY.has(context.term)) return /^[A-Z]{3}$/.test(text) ? text : currencyFromText(text);
  return text;
}

/** Keys and descriptions naming a time unit turn durations into numbers of that unit. */
function durationUnit(context: CoerceContext): number | null {
  const words = new Set([...context.term.split(' '), ...(context.description ? keyTokens(context.description) : [])]);
  if (words.has('minute') || words.has('min')) return 1;
  if (words.has('hour') || words.has('hr')) return 60;
  if (words.has('second') || words.has('sec')) return 1 / 60;
  if (words.has('day')) return 1440;
  return null;
}

const NUMBER_FIELDS = ['value', 'price', 'ratingValue', 'amount', 'lowPrice', 'minValue', 'minPrice'];

function toNumber(value: unknown, schema: ResolvedSchema, context: CoerceContext): number | null {
  let result: number | null = null;
  if (typeof value === 'number') result = value;
  else if (Array.isArray(value)) return value.length > 0 ? toNumber(value[0], schema, context) : null;
  else if (isPlainObject(value)) {
    const field = NUMBER_FIELDS.find((name) => value[name] !== undefined);
    return field ? toNumber(value[field], schema, context) : null;
  } else if (typeof value === 'string') {
    const text = textOf(value) ?? '';
    const unit = durationUnit(context);
    const minutes = unit !== null ? durationMinutes(text) : null;
    // "PT15M" is no number unless the key names the unit to count it in.
    if (unit === null && ISO_DURATION.test(text)) return null;
    result = minutes !== null && unit !== null ? minutes / unit : parseNumber(text, context.language);
  }
  if (result === null || !Number.isFinite(result)) return null;
  if (schema.type === 'integer') return Number.isInteger(result) ? result : null;
  return result;
}

function withEnum(value: number | null, schema: ResolvedSchema): number | null {
  if (value === null || !schema.enum) return value;
  return schema.enum.includes(value) ? value : null;
}

const TRUE_TERMS = new Set(
  [
    'true',
    'yes',
    'y',
    'ja',
    'oui',
    'si',
    '1',
    'in stock',
    'instock',
    'available',
    'in store only',
    'online only',
    'limited availability',
    'included',
    'include',
    'auf lager',
    'lieferbar',
    'verfugbar',
    'en stock',
    'disponible',
    'on',
    'telecommute',
    'remote ok',
    'fully remote',
    'enabled',
    'supported',
    'remote',
    'free',
    'open',
  ].map(keyTerm),
);
const FALSE_TERMS = new Set(
  [
    'false',
    'no',
    'n',
    'nein',
    'non',
    '0',
    'out of stock',
    'outofstock',
    'sold out',
    'soldout',
    'discontinued',
    'unavailable',
    'not available',
    'not included',
    'ausverkauft',
    'nicht verfugbar',
    'nicht lieferbar',
    'rupture de stock',
    'agotado',
    'off',
    'disabled',
    'not supported',
    'closed',
    'none',
  ].map(keyTerm),
);

/** "Yes", "In stock", `https://schema.org/InStock`, ✓ → true; "No", "Sold out", ✗ → false; anything else null. */
export function toBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (Array.isArray(value)) return value.length === 1 ? toBoolean(value[0]) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^[✓✔✅☑]$/u.test(text)) return true;
  if (/^[✗✘✕❌×]$/u.test(text)) return false;
  const term = keyTerm(text.replace(/^https?:\/\/schema\.org\//i, ''));
  if (TRUE_TERMS.has(term)) return true;
  if (FALSE_TERMS.has(term)) return false;
  // "Yes, shareable", "No – sold separately": the answer comes first.
  const lead = /^(yes|no|ja|nein|oui|non|true|false)\s*[,;:.–—-]/i.exec(text);
  if (lead) return TRUE_TERMS.has((lead[1] as string).toLowerCase());
  return null;
}

/** The enum option `text` names (case, separators and schema.org URLs aside); null when none or several do. */
export function matchEnum(text: string, options: ReadonlyArray<string | number | boolean>): string | null {
  const strings = options.filter((option): option is string => typeof option === 'string');
  const term = keyTerm(text.replace(/^https?:\/\/schema\.org\//i, ''));
  const exact = strings.find((option) => keyTerm(option) === term);
  if (exact !== undefined) return exact;
  const padded = ` ${term} `;
  const contained = strings.filter((option) => keyTerm(option) && padded.includes(` ${keyTerm(option)} `));
  return contained.length === 1 ? (contained[0] as string) : null;
}
