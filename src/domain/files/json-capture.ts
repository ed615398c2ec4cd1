import { CaptureTooLargeError } from './json-scan-types.js';

const EMPTY = Buffer.alloc(0);

/**
 * The bytes of one value as the checker passes over them, across chunks: the parts of earlier
 * chunks are kept (as views, no copy: producers must not reuse a chunk's memory, and Node's
 * streams do not) until the value ends, then joined once.
 */
export class ByteCapture {
  active = false;
  /** Depth of the captured value; -1 for an object key. */
  depth = 0;
  private from = 0;
  private parts: Buffer[] = [];
  private length = 0;

  constructor(private readonly limit: number) {}

  /** Starts at index `from` of the current chunk. */
  begin(depth: number, from: number): void {
    this.active = true;
    this.depth = depth;
    this.from = from;
  }

  /** The current chunk ends with the capture still open: keep its part. */
  keep(chunk: Buffer): void {
    const part = chunk.subarray(this.from);
    this.parts.push(part);
    this.length += part.length;
    this.from = 0;
    if (this.length > this.limit) throw new CaptureTooLargeError(this.depth, this.limit);
  }

  /** The value ends before index `end` of `chunk` (empty at the end of input): its bytes. */
  finish(chunk: Buffer = EMPTY, end = 0): Buffer {
    const last = chunk.subarray(this.from, end);
    const length = this.length + last.length;
    this.active = false;
    if (length > this.limit) throw new CaptureTooLargeError(this.depth, this.limit);
    const raw = this.parts.length === 0 ? last : Buffer.concat([...this.parts, last], length);
    this.parts = [];
    this.length = 0;
    return raw;
  }
}
