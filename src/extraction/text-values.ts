import { isPlainObject } from './json-schema.js';

/**
 * Plain text out of the values pages give: strings with HTML inside (JSON-LD descriptions often
 * carry `&lt;p&gt;` or `<br>`), and JSON-LD nodes read as text (a PostalAddress as one line, an
 * ImageObject as its URL, a Person as their name).
 */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  copy: '©',
  reg: '®',
  trade: '™',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  deg: '°',
  times: '×',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
  aacute: 'á',
  oacute: 'ó',
  iacute: 'í',
  uacute: 'ú',
  ntilde: 'ñ',
  ccedil: 'ç',
  check: '✓',
};

/** Decodes entities, drops tags, collapses whitespace. */
export function cleanText(value: string): string {
  let text = value;
  if (text.includes('&')) text = decodeEntities(text);
  if (/<\/?[a-z][^>]*>/i.test(text)) {
    text = text.replace(/<(?:br|\/p|\/li|\/div|\/h\d)\b[^>]*>/gi, ' ').replace(/<\/?[a-z][^>]*>/gi, '');
    if (text.includes('&')) text = decodeEntities(text);
  }
  return text.replace(/\s+/g, ' ').trim();
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (entity, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? entity;
  });
}

const ADDRESS_PARTS = [
  'streetAddress',
  'postOfficeBoxNumber',
  'postalCode',
  'addressLocality',
  'addressRegion',
  'addressCountry',
];

/** True for a JSON-LD PostalAddress (typed or not). */
export function isAddressNode(node: Record<string, unknown>): boolean {
  return ADDRESS_PARTS.some((part) => node[part] !== undefined && node[part] !== '');
}

/** A PostalAddress on one line: "Street 1, 10115 Berlin, BE, DE". */
export function addressLine(node: Record<string, unknown>): string {
  const part = (key: string) => textOf(node[key]) ?? '';
  const cityLine = [part('postalCode'), part('addressLocality')].filter(Boolean).join(' ');
  return [part('streetAddress'), part('postOfficeBoxNumber'), cityLine, part('addressRegion'), part('addressCountry')]
    .filter(Boolean)
    .join(', ');
}

/**
 * A value as text, or null when it has none. Objects read as an address line, else their `name`,
 * `@value`, `text`, `value` (+ unit), `url`/`contentUrl`; `preferUrl` reads URLs first (for
 * `image`, `url`, `logo` keys). Arrays read as their first item when `preferUrl`, else as their
 * distinct items joined by ", ".
 */
export function textOf(value: unknown, preferUrl = false): string | null {
  if (typeof value === 'string') return cleanText(value) || null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    const texts = value.map((item) => textOf(item, preferUrl)).filter((text): text is string => !!text);
    if (texts.length === 0) return null;
    return preferUrl ? (texts[0] as string) : [...new Set(texts)].join(', ');
  }
  if (!isPlainObject(value)) return null;
  if (preferUrl) {
    const url = textOf(value.url ?? value.contentUrl ?? value['@id'], true);
    if (url) return url;
  }
  if (isAddressNode(value)) return addressLine(value) || null;
  for (const key of ['name', '@value', 'text', 'caption']) {
    const text = textOf(value[key]);
    if (text) return text;
  }
  if (value.value !== undefined) {
    const text = textOf(value.value);
    const unit = textOf(value.unitText);
    return text && unit ? `${text} ${unit}` : text;
  }
  return textOf(value.url ?? value.contentUrl);
}

/** Resolves `text` as a URL against `base`; null when it is not one. */
export function urlOf(text: string, base: URL | undefined): string | null {
  const trimmed = text.trim();
  if (!trimmed || /\s/.test(trimmed) || /^(?:javascript|data|vbscript):/i.test(trimmed)) return null;
  try {
    if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed)) return new URL(trimmed).href;
    if (!base || !/^(?:\/|\.\.?\/|[\w-]+\/|[\w-]+\.\w{2,5}(?:[?#]|$))/.test(trimmed)) return null;
    return new URL(trimmed, base).href;
  } catch {
    return null;
  }
}

/** `decodeURIComponent` that leaves a malformed escape (`%E0%A4%A`) as written instead of throwing. */
export function decodeUriSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
