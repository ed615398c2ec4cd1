/**
 * A byte-level, push-style JSON syntax checker (RFC 8259) that holds no part of the document
 * but a stack of open containers: feed it chunks with write(), then end(). It checks grammar
 * and nesting depth and tracks line and column; UTF-8 is checked beside it (utf8-check.ts),
 * since outside strings only ASCII is valid and inside them the checker only skips bytes.
 *
 * Values whose depth is at most `eventDepth` are reported to the hooks, and a hook may ask for
 * a value's bytes (`capture`), which arrive whole, across chunks, when the value ends: that is
 * how a batch file hands over one item at a time without the rest of the file in memory.
 */

import { ByteCapture } from './json-capture.js';
import {
  AFTER,
  COLON,
  describeByte,
  EMPTY,
  END,
  ESCAPE,
  JsonLexer,
  KEY,
  KEY_OR_CLOSE,
  startsLiteral,
  STRING,
  VALUE,
  VALUE_OR_CLOSE,
} from './json-lexer.js';
import { JsonSyntaxError } from './json-scan-types.js';
import type { JsonPosition, JsonScanHooks, JsonScannerOptions, JsonValueKind } from './json-scan-types.js';

export { CaptureTooLargeError, JsonSyntaxError } from './json-scan-types.js';
export type { JsonPosition, JsonScanHooks, JsonScannerOptions, JsonValueKind } from './json-scan-types.js';

const OBJECT = 0;
const ARRAY = 1;

export class JsonScanner extends JsonLexer {
  eventDepth: number;
  private readonly hooks: JsonScanHooks | undefined;
  private readonly maxDepth: number;
  private readonly multiple: boolean;
  private readonly stack: Uint8Array;
  private depth = 0;
  private inKey = false;
  /** Absolute offset of the current chunk's first byte. */
  private base = 0;
  private line = 1;
  private lineStart = 0;
  private values = 0;
  private newlineSeen = false;
  /** The one capture in progress. */
  private readonly capture: ByteCapture;

  constructor(options: JsonScannerOptions) {
    super();
    if (!Number.isInteger(options.maxDepth) || options.maxDepth < 1) throw new Error('maxDepth must be at least 1');
    this.maxDepth = options.maxDepth;
    this.stack = new Uint8Array(options.maxDepth);
    this.multiple = options.multipleValues ?? false;
    this.hooks = options.hooks;
    this.eventDepth = options.eventDepth ?? -1;
    this.capture = new ByteCapture(options.maxCaptureBytes ?? Infinity);
  }

  /** Number of complete top-level values so far. */
  get valueCount(): number {
    return this.values;
  }

  /** Absolute offset of the next byte to be written. */
  get offset(): number {
    return this.base;
  }

  /** Skips `bytes` at the very start (a byte order mark): offsets stay those of the input. */
  skip(bytes: number): void {
    this.base += bytes;
    this.lineStart = this.base;
  }

  /** Position of absolute byte `offset` (at or after the start of the current line). */
  positionAt(offset: number): JsonPosition {
    return { offset, line: this.line, column: offset - this.lineStart + 1 };
  }

  write(chunk: Buffer): void {
    this.chunk = chunk;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      let c = chunk[i]!;
      const state = this.state;
      if (state < STRING) {
        while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
          if (c === 0x0a) {
            this.line++;
            this.lineStart = this.base + i + 1;
            this.newlineSeen = true;
          }
          if (++i === n) break;
          c = chunk[i]!;
        }
        if (i === n) break;
        i = this.structural(state, c, i);
      } else if (state === STRING) {
        while (i < n) {
          c = chunk[i]!;
          if (c === 0x22 || c === 0x5c || c < 0x20) break;
          i++;
        }
        if (i === n) break;
        if (c === 0x22) {
          i++;
          this.endString(i);
        } else if (c === 0x5c) {
          i++;
          this.state = ESCAPE;
        } else {
          this.fail(
            c === 0x0a
              ? 'a string cannot span lines (write the newline as \\n)'
              : 'a control character in a string must be escaped',
            i,
          );
        }
      } else {
        i = this.scalar(state, c, i);
      }
    }
    if (this.capture.active) this.capture.keep(chunk);
    this.base += n;
    this.chunk = EMPTY;
  }

  /** Checks that the input ended with complete JSON; throws JsonSyntaxError otherwise. */
  end(): void {
    const state = this.state;
    const inNumber = this.inEndableNumber;
    if (inNumber && this.depth === 0) this.endValue(0); // a top-level number ends with the input
    if (this.state === END) return;
    if (this.values === 0 && this.depth === 0 && state === VALUE) this.fail('the input holds no JSON value', 0);
    if (state >= STRING && !inNumber) this.fail('the input ends inside a value', 0);
    this.fail(`the input ends with ${this.depth} unclosed bracket${this.depth === 1 ? '' : 's'}`, 0);
  }

  /** One byte that is not whitespace in a structural state; returns the next index. */
  private structural(state: number, c: number, i: number): number {
    switch (state) {
      case AFTER:
        if (c === 0x2c) {
          this.state = this.stack[this.depth - 1] === OBJECT ? KEY : VALUE;
          return i + 1;
        }
        return this.close(
          c,
          i,
          this.stack[this.depth - 1] === OBJECT ? 'after an object member' : 'after an array element',
        );
      case VALUE_OR_CLOSE:
        if (c === 0x5d) return this.close(c, i, 'in an array');
        return this.startValue(c, i);
      case KEY_OR_CLOSE:
        if (c === 0x7d) return this.close(c, i, 'in an object');
        return this.startKey(c, i, "expected a string key or '}'");
      case KEY:
        return this.startKey(c, i, "expected a string key after ','");
      case COLON:
        if (c !== 0x3a) this.fail("expected ':' after an object key", i);
        this.state = VALUE;
        return i + 1;
      case END:
        if (!this.multiple) this.fail('unexpected data after the JSON value', i);
        if (!this.newlineSeen) this.fail('JSON Lines values must each start on a new line', i);
        return this.startValue(c, i);
      default:
        return this.startValue(c, i);
    }
  }

  private startValue(c: number, i: number): number {
    const depth = this.depth;
    let kind: JsonValueKind;
    if (c === 0x7b) kind = 'object';
    else if (c === 0x5b) kind = 'array';
    else if (c === 0x22) kind = 'string';
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) kind = 'number';
    else if (startsLiteral(c)) kind = 'literal';
    else return this.fail(`expected a value, found ${describeByte(c)}`, i);
    // Values inside a capture are not reported: they arrive as part of its bytes.
    const reported = !this.capture.active && depth <= this.eventDepth;
    if (reported && this.hooks?.valueStart(depth, kind, this.positionAt(this.base + i))) this.capture.begin(depth, i);
    switch (kind) {
      case 'object':
      case 'array':
        if (depth === this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`, i);
        this.stack[this.depth++] = kind === 'object' ? OBJECT : ARRAY;
        this.state = kind === 'object' ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
        break;
      case 'string':
        this.inKey = false;
        this.state = STRING;
        break;
      case 'number':
        this.startNumber(c);
        break;
      default:
        this.startLiteral(c);
    }
    return i + 1;
  }

  private startKey(c: number, i: number, expected: string): number {
    if (c !== 0x22) this.fail(`${expected}, found ${describeByte(c)}`, i);
    if (!this.capture.active && this.depth <= this.eventDepth) this.capture.begin(-1, i);
    this.inKey = true;
    this.state = STRING;
    return i + 1;
  }

  private endString(next: number): void {
    if (!this.inKey) return this.endValue(next);
    this.state = COLON;
    if (this.capture.active && this.capture.depth === -1)
      this.hooks?.key(this.depth, this.capture.finish(this.chunk, next));
  }

  private close(c: number, i: number, after: string): number {
    const top = this.stack[this.depth - 1];
    if ((c === 0x7d && top === OBJECT) || (c === 0x5d && top === ARRAY)) {
      this.depth--;
      this.endValue(i + 1);
      return i + 1;
    }
    const expected = top === OBJECT ? "',' or '}'" : "',' or ']'";
    return this.fail(`expected ${expected} ${after}, found ${describeByte(c)}`, i);
  }

  /** The value at the current depth ended just before `next` (an index in the current chunk). */
  protected endValue(next: number): void {
    const depth = this.depth;
    const raw = this.capture.active && this.capture.depth === depth ? this.capture.finish(this.chunk, next) : null;
    if (!this.capture.active && depth <= this.eventDepth) this.hooks?.valueEnd(depth, raw);
    if (depth === 0) {
      this.values++;
      this.newlineSeen = false;
      this.state = END;
    } else {
      this.state = AFTER;
    }
  }

  protected fail(reason: string, i: number): never {
    throw new JsonSyntaxError(reason, this.positionAt(this.base + i));
  }
}
