/** What `find` answers for a piece that is not remembered. */
export const MISSING = -0x80000000;

/**
 * Remembered pieces, looked up by where a piece stands in the page (open addressing on an FNV-1a
 * hash of its characters, compared in place): a remembered piece costs the page no string of its
 * own. Each piece's value is a number (search-vector.ts says what it means).
 *
 * Nothing here is a JavaScript object per piece: the characters sit one after the other in one
 * typed array, the rest in typed arrays beside it, outside the garbage collector's heap, so that
 * full collections of the API's thread do not mark them again. What the pieces and lexemes take is
 * measured by bench/search-vector-parity.ts (bench/results/s27-parity-memory.md).
 */
export class PieceTable {
  /** Entry + 1 per slot (0: empty); at most half full. */
  private slots = new Int32Array(1024);
  /** The pieces' characters (UTF-16 code units), one after the other. */
  private chars = new Uint16Array(4096);
  private charsUsed = 0;
  private starts = new Int32Array(256);
  private lengths = new Int32Array(256);
  private hashes = new Int32Array(256);
  private values = new Int32Array(256);
  private entries = 0;

  get size(): number {
    return this.entries;
  }

  /** The value of the piece `text[start, end)`, or MISSING when it is not remembered. */
  find(text: string, start: number, end: number): number {
    const length = end - start;
    const hash = hashOf(text, start, end);
    const { slots, hashes, lengths, starts, chars } = this;
    const mask = slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]! - 1;
      if (entry < 0) return MISSING;
      if (hashes[entry] !== hash || lengths[entry] !== length) continue;
      const at = starts[entry]!;
      let i = 0;
      while (i < length && chars[at + i] === text.charCodeAt(start + i)) i++;
      if (i === length) return this.values[entry]!;
    }
  }

  /** Remembers the piece `text[start, end)`; one already remembered keeps its value. */
  add(text: string, start: number, end: number, value: number): void {
    if (this.find(text, start, end) !== MISSING) return;
    const length = end - start;
    if ((this.entries + 1) * 2 > this.slots.length) this.growSlots();
    if (this.entries === this.values.length) this.growEntries();
    if (this.charsUsed + length > this.chars.length) {
      this.chars = grown(this.chars, Math.max(this.chars.length * 2, this.charsUsed + length));
    }
    const entry = this.entries++;
    for (let i = 0; i < length; i++) this.chars[this.charsUsed + i] = text.charCodeAt(start + i);
    this.starts[entry] = this.charsUsed;
    this.lengths[entry] = length;
    this.hashes[entry] = hashOf(text, start, end);
    this.values[entry] = value;
    this.charsUsed += length;
    this.place(entry);
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[entry]! & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
  }

  private growSlots(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let entry = 0; entry < this.entries; entry++) this.place(entry);
  }

  private growEntries(): void {
    const size = this.values.length * 2;
    this.starts = grown(this.starts, size);
    this.lengths = grown(this.lengths, size);
    this.hashes = grown(this.hashes, size);
    this.values = grown(this.values, size);
  }
}

/** A copy of `array` with room for `size` elements. */
export function grown<T extends Int32Array | Uint16Array>(array: T, size: number): T {
  const bigger = new (array.constructor as new (size: number) => T)(size);
  bigger.set(array);
  return bigger;
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`, as a signed 32-bit number. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5 | 0;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}
