/**
 * The token level of the streaming JSON checker (json-scanner.ts): its states, and the scalars
 * read byte by byte (escapes in strings, numbers, the literals `true`, `false`, `null`). The
 * scanner above it holds the structure (containers, keys, depth, JSON Lines, the hooks); this
 * class tells it, through {@link endValue}, where a scalar ended.
 */

// States. Structural ones are below STRING so one comparison selects whitespace skipping.
export const VALUE = 0; // a value must follow (top level, after ':' or after ',' in an array)
export const VALUE_OR_CLOSE = 1; // just after '['
export const KEY_OR_CLOSE = 2; // just after '{'
export const KEY = 3; // after ',' in an object
export const COLON = 4;
export const AFTER = 5; // after a value inside a container
export const END = 6; // after a top-level value
export const STRING = 7;
export const ESCAPE = 8;
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

export const EMPTY = Buffer.alloc(0);
const LITERALS: Record<number, Buffer> = {
  0x74: Buffer.from('true'),
  0x66: Buffer.from('false'),
  0x6e: Buffer.from('null'),
};

/** Whether byte `c` starts a literal (`t`, `f`, `n`). */
export const startsLiteral = (c: number) => LITERALS[c] !== undefined;

export abstract class JsonLexer {
  protected state = VALUE;
  /** The chunk being written. */
  protected chunk: Buffer = EMPTY;
  private hexLeft = 0;
  private literal: Buffer = EMPTY;
  private literalAt = 0;

  /** The value at the current depth ended just before `next` (an index in the current chunk). */
  protected abstract endValue(next: number): void;

  /** Refuses the input at index `i` of the current chunk. */
  protected abstract fail(reason: string, i: number): never;

  /** In a number that the end of the input may end (`1`, not `1.`). */
  protected get inEndableNumber(): boolean {
    const state = this.state;
    return state === NUM_ZERO || state === NUM_INT || state === NUM_FRAC || state === NUM_EXP_DIGITS;
  }

  /** A number starts with byte `c` (`-` or a digit). */
  protected startNumber(c: number): void {
    this.state = c === 0x2d ? NUM_MINUS : c === 0x30 ? NUM_ZERO : NUM_INT;
  }

  /** A literal starts with byte `c` (see {@link startsLiteral}). */
  protected startLiteral(c: number): void {
    this.literal = LITERALS[c]!;
    this.literalAt = 1;
    this.state = LITERAL;
  }

  /** Escapes, numbers and literals: one byte; returns the next index (unchanged when a number ends). */
  protected scalar(state: number, c: number, i: number): number {
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
}

/** A byte as an error message names it. */
export function describeByte(c: number): string {
  if (c >= 0x21 && c <= 0x7e) return `'${String.fromCharCode(c)}'`;
  if (c >= 0x80) return `the non-ASCII byte 0x${c.toString(16).toUpperCase()} outside a string`;
  return `the control character U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}
