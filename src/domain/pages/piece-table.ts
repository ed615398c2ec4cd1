/**
 * Remembered pieces, looked up by where a piece stands in the page (open addressing on an FNV-1a
 * hash of its characters, compared in place): a remembered piece costs the page no string of its
 * own. Grows by doubling, at most half full.
 */
export class PieceTable<V> {
  private slots = new Int32Array(1024);
  private readonly keys: string[] = [];
  private readonly hashes: number[] = [];
  private readonly values: V[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** The vector of the piece `text[start, end)`, or undefined when it is not remembered. */
  find(text: string, start: number, end: number): V | undefined {
    const hash = hashOf(text, start, end);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return undefined;
      const key = this.keys[entry - 1]!;
      if (this.hashes[entry - 1] === hash && key.length === end - start && text.startsWith(key, start)) {
        return this.values[entry - 1];
      }
    }
  }

  /** Remembers a piece (`piece` is kept: pass a string of its own); one already remembered stays as it was. */
  add(piece: string, vector: V): void {
    if (this.find(piece, 0, piece.length) !== undefined) return;
    if ((this.keys.length + 1) * 2 > this.slots.length) this.grow();
    this.keys.push(piece);
    this.hashes.push(hashOf(piece, 0, piece.length));
    this.values.push(vector);
    this.place(this.keys.length);
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hashes[entry - 1]! & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    for (let entry = 1; entry <= this.keys.length; entry++) this.place(entry);
  }
}

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
function hashOf(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
