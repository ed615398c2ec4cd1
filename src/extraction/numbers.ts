/**
 * Numbers and currencies as pages print them: "$1,299.00", "1.299,00 €", "1 299,50 zł", "CHF 12.50",
 * "4.5 out of 5", "from 19 €/month". The first number in the text is read; separators are decided
 * from the text itself, and from the page's language only when the text alone is ambiguous
 * ("1.299" is one thousand two hundred ninety-nine on a German page, one point two nine nine on an
 * English one).
 */

/** Languages that write `1.234,56` (comma decimals). */
const COMMA_DECIMAL_LANGUAGES = new Set(
  'de nl fr es it pt pl cs sk sl hr sr bs ro hu da sv nb nn no fi et lv lt tr ru uk bg el id vi is'.split(' '),
);

const NUMBER = /[-−]?\d[\d.,'\u00a0\u202f ]*/;

/** Whether `language` (a BCP 47 tag like `de-CH`) writes decimals with a comma. */
export function commaDecimals(language: string | undefined): boolean {
  const primary = language?.trim().toLowerCase().split(/[-_]/)[0];
  return primary ? COMMA_DECIMAL_LANGUAGES.has(primary) : false;
}

/**
 * The first number in `text`, or null. `language` breaks ties for a single separator followed by
 * exactly three digits. Words meaning "free" read as 0 only when they are the whole text.
 *
 * @example
 * parseNumber('1.299,00 €'); // 1299
 * parseNumber('$1,299.00'); // 1299
 * parseNumber('1.299', 'de'); // 1299
 */
export function parseNumber(text: string, language?: string): number | null {
  const trimmed = text.trim();
  if (/^(?:free|gratis|kostenlos|gratuit|gratuito|\$?0 ?free)$/i.test(trimmed)) return 0;
  const match = NUMBER.exec(trimmed);
  if (!match) return null;
  let raw = match[0].replace(/[\s\u00a0\u202f']+$/, '').replace(/[.,]+$/, '');
  const negative = /^[-−]/.test(raw);
  raw = raw.replace(/^[-−]/, '').replace(/[\s\u00a0\u202f']/g, (space, offset: number) =>
    // A space groups thousands only when three digits follow ("1 299"); otherwise the number ended.
    /^\d{3}(?:\D|$)/.test(raw.slice(offset + 1)) ? '' : '|',
  );
  raw = raw.split('|')[0] as string;
  const value = readSeparators(raw, commaDecimals(language));
  if (value === null || !Number.isFinite(value)) return null;
  const scaled = value * scale(trimmed.slice((match.index ?? 0) + match[0].length - 1), trimmed);
  return negative ? -scaled : scaled;
}

/** "$170k" is 170,000; "€1.2M" / "2 Mio. €" / "3bn" count as millions/billions only next to a currency. */
function scale(after: string, text: string): number {
  const suffix = /^\d?\s?(k|K|M|Mio\b|million\b|Mrd\b|bn\b|billion\b)(?![a-z])/.exec(after.replace(/^[\s\u00a0]+/, ''));
  if (!suffix) return 1;
  const unit = suffix[1] as string;
  if (unit === 'k' || unit === 'K') return 1000;
  if (!currencyFromText(text)) return 1;
  return /^(?:M|Mio|million)$/.test(unit) ? 1e6 : 1e9;
}

function readSeparators(raw: string, commaDecimal: boolean): number | null {
  const dots = raw.split('.').length - 1;
  const commas = raw.split(',').length - 1;
  if (dots > 0 && commas > 0) {
    // Both: the last one written is the decimal separator.
    const decimalIsComma = raw.lastIndexOf(',') > raw.lastIndexOf('.');
    return decimal(raw, decimalIsComma ? ',' : '.', decimalIsComma ? '.' : ',');
  }
  const separator = dots > 0 ? '.' : commas > 0 ? ',' : null;
  if (!separator) return Number(raw);
  const groups = raw.split(separator);
  if (groups.length > 2) {
    // "1.234.567": repeated, so grouping, valid only if every later group has three digits.
    return groups.slice(1).every((group) => group.length === 3) ? Number(groups.join('')) : null;
  }
  const fraction = groups[1] as string;
  if (fraction.length !== 3) return decimal(raw, separator, '');
  // One separator and three digits after it: grouping unless the language says otherwise.
  const grouping = separator === ',' ? !commaDecimal : commaDecimal;
  return grouping ? Number(groups.join('')) : decimal(raw, separator, '');
}

function decimal(raw: string, decimalSeparator: string, groupSeparator: string): number | null {
  const cleaned = groupSeparator ? raw.split(groupSeparator).join('') : raw;
  const parts = cleaned.split(decimalSeparator);
  if (parts.length > 2) return null;
  return Number(parts.join('.'));
}

const SYMBOLS: Array<[RegExp, string]> = [
  [/\bUS\$|\bUSD\b/, 'USD'],
  [/\bCA\$|\bC\$|\bCAD\b/, 'CAD'],
  [/\bA\$|\bAU\$|\bAUD\b/, 'AUD'],
  [/\bNZ\$|\bNZD\b/, 'NZD'],
  [/€|\bEUR\b|\bEuro?\b/i, 'EUR'],
  [/£|\bGBP\b/, 'GBP'],
  [/\bCHF\b|\bFr\.\s?\d/, 'CHF'],
  [/₹|\bINR\b|\bRs\.?\s?\d/, 'INR'],
  [/\bJPY\b|円/, 'JPY'],
  [/\bCNY\b|\bRMB\b|元/, 'CNY'],
  [/₩|\bKRW\b/, 'KRW'],
  [/₽|\bRUB\b/, 'RUB'],
  [/₺|\bTRY\b/, 'TRY'],
  [/zł|\bPLN\b/, 'PLN'],
  [/\bSEK\b/, 'SEK'],
  [/\bNOK\b/, 'NOK'],
  [/\bDKK\b/, 'DKK'],
  [/\bBRL\b|R\$/, 'BRL'],
  [/\bMXN\b/, 'MXN'],
];

/**
 * The currency a price text names: an ISO 4217 code when the text says it unambiguously (`€`,
 * `£`, `US$`, `EUR`, `CHF`...). A bare `$` or `¥` is written back as the symbol, since several
 * currencies use it; null when the text names none.
 */
export function currencyFromText(text: string): string | null {
  for (const [pattern, code] of SYMBOLS) if (pattern.test(text)) return code;
  if (/\$/.test(text)) return '$';
  if (/¥/.test(text)) return '¥';
  return null;
}
