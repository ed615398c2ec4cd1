import { createHash, randomBytes } from 'node:crypto';

/** Every key starts with this, so secret scanners and people recognise it. */
export const API_KEY_PREFIX = 'gln_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40; // ~238 bits
/** How many characters of a key are kept in clear to tell keys apart in listings. */
export const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export function generateApiKeySecret(): string {
  let out = API_KEY_PREFIX;
  while (out.length < API_KEY_PREFIX.length + SECRET_LENGTH) {
    for (const b of randomBytes(64)) {
      if (b < 248 && out.length < API_KEY_PREFIX.length + SECRET_LENGTH) out += BASE62[b % 62]; // 248 = 62 * 4
    }
  }
  return out;
}

/** Keys are long random secrets, so a plain SHA-256 is a safe lookup hash (no salt/KDF needed). */
export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX) && /^[A-Za-z0-9_]+$/.test(token);
}
