import { decodeUriSafely } from './text-values.js';

/**
 * Email addresses and phone numbers in text, as pages write them, including the usual disguises
 * ("jane [at] example [dot] com", Cloudflare's `data-cfemail`). Phone numbers are only taken where
 * they cannot be something else: `tel:` links, international `+` numbers, and the separated
 * national forms `(555) 123-4567` / `555-123-4567` / `030 1234567` behind a phone label.
 */

const EMAIL = /[a-z0-9][a-z0-9._%+-]{0,63}@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}/gi;
const NOT_TLD = /\.(?:png|jpe?g|gif|svg|webp|avif|ico|css|js|mjs|json|xml|pdf|zip)$/i;
const BRACKET_AT = String.raw`\s*(?:\[\s*(?:at|@)\s*\]|\(\s*(?:at|@)\s*\)|\{\s*(?:at|@)\s*\}|\s(?:AT|at)\s|&#64;|\s@\s)\s*`;
const BRACKET_DOT = String.raw`\s*(?:\[\s*(?:dot|\.|punkt|point)\s*\]|\(\s*(?:dot|\.|punkt|point)\s*\)|\{\s*(?:dot|\.)\s*\}|\s(?:DOT|dot)\s|\.)\s*`;
const OBFUSCATED = new RegExp(
  String.raw`([a-z0-9][a-z0-9._%+-]{0,63})${BRACKET_AT}([a-z0-9-]{1,63}(?:${BRACKET_DOT}[a-z0-9-]{1,63})*?${BRACKET_DOT}[a-z]{2,24})\b`,
  'gi',
);

/** A found address lower-cased, or null when it is not a plausible one. */
export function normaliseEmail(raw: string): string | null {
  const email =
    raw
      .trim()
      .replace(/^mailto:/i, '')
      .split('?')[0]
      ?.trim()
      .toLowerCase() ?? '';
  if (!/^[a-z0-9][a-z0-9._%+-]*@[a-z0-9.-]+\.[a-z]{2,24}$/.test(email)) return null;
  if (NOT_TLD.test(email) || email.includes('..')) return null;
  return email;
}

/**
 * Every address in `text`, in order of appearance, without repeats. Disguised forms count only
 * when the disguise is explicit (brackets, `AT`/`DOT` in capitals, or `at`/`dot` with a dot-less
 * host between them), so prose like "meet at noon." is never read as an address.
 *
 * @example
 * emailsInText('Write to jane [at] example [dot] com or sales@example.com');
 * // ['jane@example.com', 'sales@example.com']
 */
export function emailsInText(text: string): string[] {
  const found: Array<[number, string]> = [];
  for (const match of text.matchAll(EMAIL)) {
    const email = normaliseEmail(match[0]);
    if (email) found.push([match.index ?? 0, email]);
  }
  for (const match of text.matchAll(OBFUSCATED)) {
    const whole = match[0];
    if (!/[[({]|\sAT\s|\sDOT\s|&#64;|\s(?:at|@)\s.*\sdot\s/.test(whole)) continue;
    const host = (match[2] as string).replace(new RegExp(BRACKET_DOT, 'gi'), '.');
    const email = normaliseEmail(`${match[1]}@${host}`);
    if (email) found.push([match.index ?? 0, email]);
  }
  found.sort((a, b) => a[0] - b[0]);
  return [...new Set(found.map(([, email]) => email))];
}

/** Cloudflare's email protection: hex bytes, the first the XOR key of the rest. */
export function decodeCloudflareEmail(hex: string): string | null {
  if (!/^(?:[0-9a-f]{2}){2,}$/i.test(hex)) return null;
  const key = parseInt(hex.slice(0, 2), 16);
  let out = '';
  for (let i = 2; i < hex.length; i += 2) out += String.fromCharCode(parseInt(hex.slice(i, i + 2), 16) ^ key);
  return normaliseEmail(out);
}

/** `+49 30 1234567` → `+49301234567`; digits only otherwise. Null below 6 or above 15 digits. */
export function normalisePhone(raw: string): string | null {
  const plus = raw.trim().startsWith('+') || raw.trim().startsWith('00');
  const digits = raw.replace(/\D/g, '').replace(/^00/, '');
  if (digits.length < 6 || digits.length > 15) return null;
  return plus ? `+${digits}` : digits;
}

/** Every recipient of a `mailto:` link (`mailto:a@x.com,b@y.com?subject=...`), normalised. */
export function mailtoAddresses(href: string): string[] {
  const recipients = decodeUriSafely(href.replace(/^mailto:/i, '')).split('?')[0] ?? '';
  return recipients
    .split(/[,;]/)
    .map(normaliseEmail)
    .filter((email): email is string => email !== null);
}

/** A `tel:` link's number as the page shows it (the link text when it is the number, else the href's). */
export function phoneFromTelLink(href: string, text: string): string | null {
  const number = decodeUriSafely(href.replace(/^tel:/i, '')).split(/[;?]/)[0]?.trim() ?? '';
  const fromHref = normalisePhone(number);
  if (!fromHref) return null;
  const shown = text.trim();
  return shown && normalisePhone(shown) === fromHref ? shown : number;
}

const INTERNATIONAL = /(?<![\w+])\+\d{1,3}(?:[\s.\-/]?\(?\d{1,5}\)?){2,6}(?!\w)/g;
const NATIONAL =
  /(?<![\w+])(?:\(\d{2,5}\)\s?\d{3,4}[\s.-]?\d{3,5}|\d{3}[.-]\d{3}[.-]\d{4}|0\d{2,5}[\s/-]\d{3,9}(?:[\s-]\d{2,5})?)(?![\w])/g;
const FAX_LABEL = /\b(?:fax|telefax)\b\.?\s*[:：]?\s*$/i;
const PHONE_LABEL =
  /\b(?:phone|telephone|tel|call|mobile|cell|fon|telefon|téléphone|teléfono|hotline|whatsapp)\b\.?\s*[:：]?\s*$/i;

/**
 * Phone numbers in `text` as written: international `+` numbers anywhere but after a fax label,
 * national forms only right after a phone label ("Phone:", "Tel.", "Telefon"). Deduplicated by
 * their digits.
 *
 * @example
 * phonesInText('Call +1 (555) 010-7788 · Fax: 030 1234567 · Tel: 030 7654321');
 * // ['+1 (555) 010-7788', '030 7654321']
 */
export function phonesInText(text: string): string[] {
  const found: Array<[number, string]> = [];
  for (const match of text.matchAll(INTERNATIONAL)) {
    const before = text.slice(Math.max(0, (match.index ?? 0) - 16), match.index);
    if (!FAX_LABEL.test(before)) found.push([match.index ?? 0, match[0].trim()]);
  }
  for (const match of text.matchAll(NATIONAL)) {
    const before = text.slice(Math.max(0, (match.index ?? 0) - 24), match.index);
    if (PHONE_LABEL.test(before)) found.push([match.index ?? 0, match[0].trim()]);
  }
  found.sort((a, b) => a[0] - b[0]);
  const seen = new Set<string>();
  const phones: string[] = [];
  for (const [, phone] of found) {
    const key = normalisePhone(phone);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    phones.push(phone);
  }
  return phones;
}
