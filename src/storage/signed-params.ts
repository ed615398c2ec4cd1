import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * HMAC-SHA256 signatures over a set of string parameters, for anything the service hands
 * out and must later trust again: signed blob URLs, map cursors, upload grants.
 *
 * The `scope` separates uses, so a signature made for one purpose (a blob URL) is never
 * accepted for another (a cursor) even when the parameters happen to match. Parameters are
 * canonicalised (sorted, percent-encoded), so their order does not matter, and adding,
 * removing or changing any of them invalidates the signature.
 *
 * @example
 * const sig = signParams(secret, 'map-cursor', { map: mapId, offset: '200' });
 * verifyParams(secret, 'map-cursor', { map: mapId, offset: '200' }, sig); // true
 */
export function signParams(secret: string, scope: string, params: Readonly<Record<string, string>>): string {
  if (secret.length < 16) throw new Error('signing secret must be at least 16 characters');
  if (scope.length === 0 || scope.includes('\n')) throw new Error('signing scope must be a non-empty single line');
  return createHmac('sha256', secret).update(canonicalize(scope, params)).digest('hex');
}

/** True when `signature` is `signParams(secret, scope, params)`; compares in constant time. */
export function verifyParams(
  secret: string,
  scope: string,
  params: Readonly<Record<string, string>>,
  signature: string,
): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signParams(secret, scope, params), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

function canonicalize(scope: string, params: Readonly<Record<string, string>>): string {
  const pairs = Object.keys(params)
    .sort()
    .map((name) => `${encodeURIComponent(name)}=${encodeURIComponent(params[name] ?? '')}`);
  return `${scope}\n${pairs.join('&')}`;
}
