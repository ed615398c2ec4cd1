import { isUtf8 } from 'node:buffer';

/**
 * Checks that a byte stream is well-formed UTF-8 (Unicode 15, table 3-7: no overlong forms,
 * no surrogates, nothing above U+10FFFF), chunk by chunk, with a character allowed to span
 * chunks. The common case is one native `isUtf8` call per chunk (simdutf, several GB/s and no
 * string made); the byte-by-byte walk runs only to locate an error.
 *
 * @example
 * const utf8 = new Utf8Check();
 * for (const chunk of chunks) { const bad = utf8.check(chunk); if (bad !== -1) throw … }
 * const bad = utf8.end();
 */
export class Utf8Check {
  /** Start of an incomplete character at the end of the last chunk. */
  private carry: Buffer = Buffer.alloc(0);
  private base = 0;

  /** The absolute offset of the first byte of the first bad sequence, or -1 if all is well so far. */
  check(chunk: Buffer): number {
    let from = 0;
    const carryStart = this.base - this.carry.length;
    if (this.carry.length > 0) {
      const want = sequenceLength(this.carry[0]!) - this.carry.length;
      const joined = Buffer.concat([this.carry, chunk.subarray(0, want)]);
      if (joined.length < sequenceLength(this.carry[0]!)) {
        // Still incomplete: the chunk was tiny. Check the part that is there and wait for more.
        const bad = firstInvalid(joined, true);
        this.base += chunk.length;
        if (bad !== -1) return carryStart + bad;
        this.carry = joined;
        return -1;
      }
      const bad = firstInvalid(joined, false);
      if (bad !== -1) return carryStart + bad;
      from = want;
    }
    const tail = incompleteTail(chunk, from);
    const body = chunk.subarray(from, chunk.length - tail);
    this.carry = Buffer.from(chunk.subarray(chunk.length - tail));
    const start = this.base + from;
    this.base += chunk.length;
    if (isUtf8(body)) return -1;
    return start + firstInvalid(body, false);
  }

  /** At the end of the input: the offset of a character cut short, or -1. */
  end(): number {
    return this.carry.length > 0 ? this.base - this.carry.length : -1;
  }
}

/** Bytes a sequence starting with `lead` has; 1 for ASCII and for bytes that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/** How many bytes at the end of `chunk` (after `from`) start a character that continues later. */
function incompleteTail(chunk: Buffer, from: number): number {
  for (let back = 1; back <= 3 && chunk.length - back >= from; back++) {
    const byte = chunk[chunk.length - back]!;
    if ((byte & 0xc0) !== 0x80) return sequenceLength(byte) > back ? back : 0;
  }
  return 0;
}

/** Offset of the first ill-formed sequence in `bytes`, or -1; `partial` accepts a cut-off end. */
function firstInvalid(bytes: Buffer, partial: boolean): number {
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(lead);
    if (length === 1) return i;
    // The second byte's range depends on the lead (excludes overlongs, surrogates, > U+10FFFF).
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    for (let k = 1; k < length; k++) {
      if (i + k >= bytes.length) return partial ? -1 : i;
      const byte = bytes[i + k]!;
      if (k === 1 ? byte < low || byte > high : (byte & 0xc0) !== 0x80) return i;
    }
    i += length;
  }
  return -1;
}
