import { describe, expect, it } from 'vitest';
import { Utf8Check } from '../../../src/domain/files/utf8-check.js';

/** The offset Utf8Check reports for `bytes` split into chunks of `size`, or -1. */
function firstBad(bytes: Buffer, size: number): number {
  const check = new Utf8Check();
  for (let i = 0; i < bytes.length; i += size) {
    const bad = check.check(bytes.subarray(i, i + size));
    if (bad !== -1) return bad;
  }
  return check.end();
}

function isValid(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

const b = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('Utf8Check', () => {
  it('agrees with a fatal TextDecoder on random byte strings, whatever the chunking', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pieces = ['a', 'é', '€', '𝄞', '日本', [0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]];
    const samples = Array.from({ length: 2000 }, () => {
      const parts = Array.from({ length: 1 + Math.floor(random() * 6) }, () => {
        const piece = pieces[Math.floor(random() * (random() < 0.8 ? 5 : pieces.length))]!;
        return Buffer.from(typeof piece === 'string' ? Buffer.from(piece) : piece);
      });
      const joined = Buffer.concat(parts);
      // Now and then cut a character short.
      return random() < 0.1 ? joined.subarray(0, Math.max(0, joined.length - 1)) : joined;
    });
    let valid = 0;
    for (const sample of samples) {
      const expected = isValid(sample);
      if (expected) valid++;
      for (const size of [1, 2, 3, 5, sample.length || 1]) {
        expect(firstBad(sample, size) === -1, `${sample.toString('hex')} in chunks of ${size}`).toBe(expected);
      }
    }
    expect(valid).toBeGreaterThan(500);
    expect(valid).toBeLessThan(1900);
  });

  it.each([
    ['a lone continuation byte', b('ab', [0x80], 'c'), 2],
    ['an overlong slash', b('a', [0xc0, 0xaf]), 1],
    ['an overlong three-byte form', b([0xe0, 0x80, 0xaf]), 0],
    ['a surrogate', b('xy', [0xed, 0xa0, 0x80]), 2],
    ['a code point above U+10FFFF', b([0xf4, 0x90, 0x80, 0x80]), 0],
    ['a character cut by the end of input', b('abc', [0xe2, 0x82]), 3],
    ['a lead byte followed by ASCII', b('é', [0xc3], 'x'), 2],
  ])('locates %s', (_name, bytes, offset) => {
    for (const size of [1, 2, 4, bytes.length]) expect(firstBad(bytes, size)).toBe(offset);
  });

  it('accepts characters split across chunks at every point', () => {
    const text = b('a€b𝄞c日本');
    for (let size = 1; size <= text.length; size++) expect(firstBad(text, size)).toBe(-1);
  });
});
