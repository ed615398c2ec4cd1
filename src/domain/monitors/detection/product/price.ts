/**
 * Prices: reading an amount and its currency from structured data or visible text, in the
 * number formats shops use (`1,234.56`, `1.234,56`, `1 234,56`, `1'234.50`, `¥1,980`).
 * Amounts are kept as canonical decimal strings (`"1234.56"`), never floats, so a stored
 * snapshot compares exactly; `Number(amount)` is only used for direction and percentages.
 */

/** Where a product value was read. `inferred`: concluded from the absence of a contrary sign. */
export type ProductSource = 'json-ld' | 'microdata' | 'meta' | 'text' | 'inferred';

export interface PriceValue {
  /** The price, or the lowest of several offers (variants). Canonical decimal string. */
  amount: string;
  /** The highest offer when offers differ (a range `amount`–`high`). */
  high?: string;
  /** ISO 4217 code when known (`USD`), else the sign as printed (`$`, `kr`), else null. */
  currency: string | null;
  source: ProductSource;
}

const SIGN_TO_CODE: Record<string, string> = {
  '€': 'EUR', '£': 'GBP', '¥': 'JPY', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '฿': 'THB',
  '₫': 'VND', 'zł': 'PLN', 'R$': 'BRL', 'US$': 'USD', 'A$': 'AUD', 'AU$': 'AUD', 'C$': 'CAD', 'CA$': 'CAD',
  'NZ$': 'NZD', 'HK$': 'HKD', 'S$': 'SGD', 'Kč': 'CZK', 'Ft': 'HUF',
}; // prettier-ignore

const CODES = 'USD|EUR|GBP|JPY|CNY|INR|CAD|AUD|NZD|CHF|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|KRW|RUB|TRY|ZAR|SGD|HKD|ILS|THB';
const SIGNS = 'US\\$|AU?\\$|CA?\\$|NZ\\$|HK\\$|S\\$|R\\$|\\$|€|£|¥|₹|₩|₽|₺|₪|฿|₫|zł|Kč|Ft|kr';
const AMOUNT = "\\d{1,3}(?:[.,'\\u00a0\\u202f ]\\d{3})+(?:[.,]\\d{1,2})?|\\d+(?:[.,]\\d{1,2})?";
const CURRENCY = `(?<![A-Za-z])(?:${SIGNS}|${CODES})(?![A-Za-z])`;

/** A price as printed: a currency before or after an amount. */
const PRICE_IN_TEXT = new RegExp(
  `(?<c1>${CURRENCY})\\s?(?<a1>${AMOUNT})(?![\\d])|(?<![\\d.,])(?<a2>${AMOUNT})\\s?(?<c2>${CURRENCY})`,
  'u',
);

/**
 * The canonical decimal form of a printed amount, or null. With both `,` and `.`, the later one
 * is the decimal mark; with one kind, a mark repeated or followed by exactly three digits groups
 * thousands (`1.299` is 1299: shop prices have two decimals or none), anything else is decimal.
 *
 * @example
 * parseAmount('1.234,56'); // '1234.56'
 * parseAmount('19,99');    // '19.99'
 * parseAmount("1'299");    // '1299'
 */
export function parseAmount(raw: string): string | null {
  const text = raw.replace(/[\s\u00a0\u202f']/g, '');
  if (!/^\d[\d.,]*$/.test(text)) return null;
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  let integer = text;
  let fraction = '';
  if (lastComma >= 0 && lastDot >= 0) {
    const mark = Math.max(lastComma, lastDot);
    integer = text.slice(0, mark);
    fraction = text.slice(mark + 1);
  } else if (lastComma >= 0 || lastDot >= 0) {
    const sign = lastComma >= 0 ? ',' : '.';
    const parts = text.split(sign);
    const tail = parts[parts.length - 1] as string;
    if (parts.length === 2 && tail.length !== 3) {
      integer = parts[0] as string;
      fraction = tail;
    }
  }
  integer = integer.replace(/[.,]/g, '');
  if (!/^\d+$/.test(integer) || !/^\d*$/.test(fraction)) return null;
  integer = integer.replace(/^0+(?=\d)/, '');
  return fraction ? `${integer}.${fraction}` : integer;
}

/** A JSON-LD or microdata price: a number, or a string in schema.org's dot-decimal form (lenient). */
export function parseStructuredAmount(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? canonicalNumber(value) : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return trimmed.replace(/^0+(?=\d)/, '');
  const printed = parsePriceText(trimmed);
  return printed?.amount ?? parseAmount(trimmed);
}

function canonicalNumber(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(2) : text;
}

/** The currency code for a printed sign or code (`€` → `EUR`); unknown signs come back as printed. */
export function normaliseCurrency(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  if (!text) return null;
  if (/^[A-Za-z]{3}$/.test(text)) return text.toUpperCase();
  return SIGN_TO_CODE[text] ?? text;
}

/**
 * The first price printed in `text`, or null.
 *
 * @example
 * parsePriceText('Now only 1.299,00 €'); // { amount: '1299.00', currency: 'EUR' }
 */
export function parsePriceText(text: string): { amount: string; currency: string | null } | null {
  const match = PRICE_IN_TEXT.exec(text);
  const groups = match?.groups;
  if (!groups) return null;
  const amount = parseAmount((groups.a1 ?? groups.a2) as string);
  if (amount === null) return null;
  return { amount, currency: normaliseCurrency(groups.c1 ?? groups.c2) };
}

/** Every price printed in `text`. */
export function pricesInText(text: string): { amount: string; currency: string | null }[] {
  const found: { amount: string; currency: string | null }[] = [];
  const global = new RegExp(PRICE_IN_TEXT.source, 'gu');
  for (const match of text.matchAll(global)) {
    const price = parsePriceText(match[0]);
    if (price) found.push(price);
  }
  return found;
}

const DISPLAY_SIGN: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', INR: '₹' };

/**
 * A price for people: `$19.99`, `€1299.00`, `CHF 49.90`, `$19.99–$24.99`.
 *
 * @example
 * formatPrice({ amount: '17.49', currency: 'USD', source: 'json-ld' }); // '$17.49'
 */
export function formatPrice(price: Pick<PriceValue, 'amount' | 'high' | 'currency'>): string {
  const one = (amount: string): string => {
    const currency = price.currency;
    if (!currency) return amount;
    const sign = DISPLAY_SIGN[currency] ?? (/^[A-Z]{3}$/.test(currency) ? null : currency);
    return sign ? `${sign}${amount}` : `${currency} ${amount}`;
  };
  return price.high && price.high !== price.amount ? `${one(price.amount)}–${one(price.high)}` : one(price.amount);
}

/** Lowest and highest of several amounts, as a price range. */
export function priceRange(amounts: readonly string[]): { amount: string; high?: string } | null {
  if (amounts.length === 0) return null;
  const sorted = [...new Set(amounts)].sort((a, b) => Number(a) - Number(b));
  const low = sorted[0] as string;
  const high = sorted[sorted.length - 1] as string;
  return high === low ? { amount: low } : { amount: low, high };
}
