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
import { JsonSyntaxError } from './json-scan-types.js';
import type { JsonPosition, JsonScanHooks, JsonScannerOptions, JsonValueKind } from './json-scan-types.js';

export { CaptureTooLargeError, JsonSyntaxError } from './json-scan-types.js';
export type { JsonPosition, JsonScanHooks, JsonScannerOptions, JsonValueKind } from './json-scan-types.js';

// States. Structural ones are below STRING so one comparison selects whitespace skipping.
const VALUE = 0; // a value must follow (top level, after ':' or after ',' in an array)
const VALUE_OR_CLOSE = 1; // just after '['
const KEY_OR_CLOSE = 2; // just after '{'
const KEY = 3; // after ',' in an object
const COLON = 4;
const AFTER = 5; // after a value inside a container
const END = 6; // after a top-level value
const STRING = 7;
const ESCAPE = 8;
const UNICODE = 9;
const NUM_MINUS = 10;
const NUM_ZERO = 11;
const NUM_INT = 12;
const NUM_DOT = 13;
const NUM_FRAC = 14;
const NUM_EXP = 15;
const NUM_EXP_SIGN = 16;
const NUM_EXP_DIGITS = 17;
const LITERAL = 18;

const OBJECT = 0;
const ARRAY = 1;
const EMPTY = Buffer.alloc(0);
const LITERALS: Record<number, Buffer> = {
  0x74: Buffer.from('true'),
  0x66: Buffer.from('false'),
  0x6e: Buffer.from('null'),
};

export class JsonScanner {
  eventDepth: number;
  private readonly hooks: JsonScanHooks | undefined;
  private readonly maxDepth: number;
  private readonly multiple: boolean;
  private readonly stack: Uint8Array;
  private depth = 0;
  private state = VALUE;
  private inKey = false;
  private hexLeft = 0;
  private literal: Buffer = EMPTY;
  private literalAt = 0;
  /** Absolute offset of the current chunk's first byte. */
  private base = 0;
  private line = 1;
  private lineStart = 0;
  private values = 0;
  private newlineSeen = false;
  /** The one capture in progress. */
  private readonly capture: ByteCapture;
  private chunk: Buffer = EMPTY;

  constructor(options: JsonScannerOptions) {
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
    const inNumber = state === NUM_ZERO || state === NUM_INT || state === NUM_FRAC || state === NUM_EXP_DIGITS;
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
    else if (LITERALS[c] !== undefined) kind = 'literal';
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
        this.state = c === 0x2d ? NUM_MINUS : c === 0x30 ? NUM_ZERO : NUM_INT;
        break;
      default:
        this.literal = LITERALS[c]!;
        this.literalAt = 1;
        this.state = LITERAL;
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
  private endValue(next: number): void {
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

  /** Escapes, numbers and literals: one byte; returns the next index (unchanged when a number ends). */
  private scalar(state: number, c: number, i: number): number {
    const isDigit = c >= 0x30 && c <= 0x39;
    switch (state) {
      case ESCAPE:
        if (c === 0x75) {
          this.hexLeft = 4;
          this.state = UNICODE;
        } else if (
          c === 0x22 ||
          c === 0x5c ||
          c === 0x2f ||
          c === 0x62 ||
          c === 0x66 ||
          c === 0x6e ||
          c === 0x72 ||
          c === 0x74
        ) {
          this.state = STRING;
        } else {
          this.fail(`invalid escape sequence after \\: ${describeByte(c)}`, i);
        }
        return i + 1;
      case UNICODE:
        if (!isDigit && !((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)) this.fail('expected 4 hex digits after \\u', i);
        if (--this.hexLeft === 0) this.state = STRING;
        return i + 1;
      case LITERAL:
        if (c !== this.literal[this.literalAt]) this.fail(`invalid literal (expected ${this.literal.toString()})`, i);
        if (++this.literalAt === this.literal.length) this.endValue(i + 1);
        return i + 1;
      default:
        return this.number(state, c, isDigit, i);
    }
  }

  private number(state: number, c: number, isDigit: boolean, i: number): number {
    const chunk = this.chunk;
    switch (state) {
      case NUM_MINUS:
        if (!isDigit) this.fail("expected a digit after '-'", i);
        this.state = c === 0x30 ? NUM_ZERO : NUM_INT;
        return i + 1;
      case NUM_DOT:
        if (!isDigit) this.fail("expected a digit after '.'", i);
        this.state = NUM_FRAC;
        return i + 1;
      case NUM_EXP:
        if (c === 0x2b || c === 0x2d) this.state = NUM_EXP_SIGN;
        else if (isDigit) this.state = NUM_EXP_DIGITS;
        else this.fail('expected a digit in the exponent', i);
        return i + 1;
      case NUM_EXP_SIGN:
        if (!isDigit) this.fail('expected a digit in the exponent', i);
        this.state = NUM_EXP_DIGITS;
        return i + 1;
      case NUM_ZERO:
        if (isDigit) this.fail('a number cannot have leading zeros', i);
        break;
      default: {
        // NUM_INT, NUM_FRAC, NUM_EXP_DIGITS: any number of digits.
        let j = i;
        while (j < chunk.length && chunk[j]! >= 0x30 && chunk[j]! <= 0x39) j++;
        if (j === chunk.length) return j;
        c = chunk[j]!;
        i = j;
      }
    }
    if (c === 0x2e && (state === NUM_ZERO || state === NUM_INT)) this.state = NUM_DOT;
    else if ((c === 0x65 || c === 0x45) && state !== NUM_EXP_DIGITS) this.state = NUM_EXP;
    else {
      this.endValue(i); // the byte after the number belongs to what follows
      return i;
    }
    return i + 1;
  }

  private fail(reason: string, i: number): never {
    throw new JsonSyntaxError(reason, this.positionAt(this.base + i));
  }
}

function describeByte(c: number): string {
  if (c >= 0x21 && c <= 0x7e) return `'${String.fromCharCode(c)}'`;
  if (c >= 0x80) return `the non-ASCII byte 0x${c.toString(16).toUpperCase()} outside a string`;
  return `the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}
