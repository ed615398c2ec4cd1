import type { ByteRange } from './blob-store.js';

/** What a `Range` request header asks of an object of a given size. */
export type RangeRequest = { kind: 'none' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * Interprets a `Range` header against an object of `size` bytes (RFC 9110 §14.1.2). Only a
 * single `bytes` range is honoured; anything else (other units, several ranges, bad syntax)
 * is ignored, which the RFC allows: the client then gets the whole object with 200.
 *
 * @example
 * parseRangeHeader('bytes=0-99', 1000);  // { kind: 'range', range: { start: 0, end: 99 } }
 * parseRangeHeader('bytes=-100', 1000);  // { kind: 'range', range: { start: 900, end: 999 } }
 * parseRangeHeader('bytes=2000-', 1000); // { kind: 'unsatisfiable' }
 */
export function parseRangeHeader(header: string | null | undefined, size: number): RangeRequest {
  const none = { kind: 'none' } as const;
  if (!header) return none;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return none;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return none;
  if (first === '') {
    const suffix = toOffset(last);
    if (suffix === null) return none;
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = toOffset(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : toOffset(last);
  if (start === null || end === null || end < start) return none;
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end: Math.min(end, size - 1) } };
}

/** `Content-Range` of a served range. */
export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

function toOffset(digits: string): number | null {
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : null;
}
