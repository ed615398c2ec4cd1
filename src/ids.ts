import { randomFillSync } from 'node:crypto';

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

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time: one `randomBytes` call per id cost
 * 12-25 µs (a call into OpenSSL and a Buffer each time), a few per request; from the pool an
 * id costs about one µs. Every byte is used once.
 */
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

function randomByte(): number {
  if (poolOffset === POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** A random lowercase base36 string of `length` characters (about 5.17 bits each). */
export function randomBase36(length = 20): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    // 252 = 36 * 7: reject the tail to keep the distribution uniform.
    if (b < 252) out += ALPHABET[b % 36];
  }
  return out;
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
