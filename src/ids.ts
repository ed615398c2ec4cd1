import { randomBytes } from 'node:crypto';

/** Resource kinds that carry a typed id prefix (decisions.md, "Wire conventions"). */
export type IdKind =
  | 'scrape'
  | 'batch'
  | 'item'
  | 'crawl'
  | 'page'
  | 'map'
  | 'answer'
  | 'search'
  | 'file'
  | 'schedule'
  | 'monitor'
  | 'event'
  | 'error'
  | 'team'
  | 'key'
  | 'delivery'
  | 'job'
  | 'req';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A random lowercase base36 string of `length` characters (about 5.17 bits each). */
export function randomBase36(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    const b = bytes[i]!;
    // 252 = 36 * 7: reject the tail to keep the distribution uniform.
    if (b < 252) out += ALPHABET[b % 36];
  }
  return out.length === length ? out : out + randomBase36(length - out.length);
}

/** `scrape_k3j...`: a typed, unguessable id. */
export function newId(kind: IdKind): string {
  return `${kind}_${randomBase36(20)}`;
}

/** The part after the prefix, or null when `id` does not carry that kind's prefix. */
export function idSuffix(kind: IdKind, id: string): string | null {
  const prefix = `${kind}_`;
  return id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length) : null;
}
