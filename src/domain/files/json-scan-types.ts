/** Types and errors of the streaming JSON checker (json-scanner.ts). */

export type JsonValueKind = 'object' | 'array' | 'string' | 'number' | 'literal';

export interface JsonPosition {
  /** Byte offset from the start of the input (0-based). */
  offset: number;
  /** 1-based line. */
  line: number;
  /** 1-based column, counted in bytes from the start of the line. */
  column: number;
}

/** The input is not JSON (or nests too deep); `position` is where the checker stopped. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly position: JsonPosition,
  ) {
    super(`${reason} at line ${position.line}, column ${position.column}`);
    this.name = 'JsonSyntaxError';
  }
}

export interface JsonScanHooks {
  /** A value starts (0 = top level; the elements of a top-level array are at 1). True captures it. */
  valueStart(depth: number, kind: JsonValueKind, at: JsonPosition): boolean;
  /** The value ended; `raw` holds its bytes when it was captured. */
  valueEnd(depth: number, raw: Buffer | null): void;
  /** The key of an object member whose value will be at `depth`, as raw JSON (quotes included). */
  key(depth: number, raw: Buffer): void;
}

export interface JsonScannerOptions {
  /** Most containers open at once; one more is a syntax error. */
  maxDepth: number;
  /** JSON Lines: several top-level values, each starting on a new line. */
  multipleValues?: boolean;
  hooks?: JsonScanHooks;
  /** Deepest values reported to the hooks (default -1: none); may be changed while scanning. */
  eventDepth?: number;
  /** Largest capture; a bigger value or key makes the checker throw {@link CaptureTooLargeError}. */
  maxCaptureBytes?: number;
}

/** A captured value or key outgrew `maxCaptureBytes`; thrown when it is noticed. */
export class CaptureTooLargeError extends Error {
  constructor(
    readonly depth: number,
    readonly limit: number,
  ) {
    super(`a value at depth ${depth} is larger than ${limit} bytes`);
    this.name = 'CaptureTooLargeError';
  }
}
