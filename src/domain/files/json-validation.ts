import { AppError } from '../../errors.js';
import { DEFAULT_MAX_UPLOAD_BYTES } from '../../storage/blob-store.js';
import { JsonScanner, JsonSyntaxError } from './json-scanner.js';
import type { JsonPosition, JsonValueKind } from './json-scanner.js';
import { Utf8Check } from './utf8-check.js';

/**
 * Validation of uploaded JSON files as a stream, in bounded memory whatever the file's size:
 * well-formed UTF-8, JSON syntax, nesting depth and size, with the position of the first error.
 * Batch files add item checks on top (batch-file.ts).
 */

export interface JsonFileLimits {
  /**
   * Most containers open at once; deeper nesting is refused. The caller passes the API's
   * limit for request JSON, so an uploaded file may nest exactly as deep as a request body.
   */
  maxDepth: number;
  /** Largest file accepted (default 200 MB, the Files API's limit). */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface JsonFileSummary {
  /** Bytes read, a leading byte order mark included. */
  bytes: number;
  /** What the top-level value is. */
  kind: JsonValueKind;
}

/** The bytes of a file as a stream: `BlobStream.body`, or any async iterable of chunks. */
export type ByteSource = AsyncIterable<Buffer | Uint8Array | string>;

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Checks that `body` is one JSON value (a `purpose: "context"` file). Throws a 400 AppError:
 * `invalid_json` (syntax, encoding or depth, with `line`, `column` and `offset` in metadata)
 * or `file_too_large`.
 *
 * @example
 * const opened = await blobs.stream(key);
 * const { bytes, kind } = await validateJsonFile(opened.body, { maxDepth: 32 });
 */
export async function validateJsonFile(body: ByteSource, limits: JsonFileLimits): Promise<JsonFileSummary> {
  let kind: JsonValueKind | null = null;
  const scanner = new JsonScanner({
    maxDepth: limits.maxDepth,
    eventDepth: 0,
    hooks: {
      valueStart: (_depth, found) => {
        kind = found;
        return false;
      },
      valueEnd: () => undefined,
      key: () => undefined,
    },
  });
  const bytes = await scanJsonStream(body, scanner, limits);
  return { bytes, kind: kind! };
}

/**
 * Feeds `body` to `scanner`, checking UTF-8 and size first, and ends it. `afterChunk` runs
 * after each chunk (a batch file hands over the items the chunk completed). Returns the bytes
 * read; throws AppErrors as {@link validateJsonFile} does, and whatever the hooks throw.
 */
export async function scanJsonStream(
  body: ByteSource,
  scanner: JsonScanner,
  limits: JsonFileLimits,
  afterChunk?: () => Promise<void>,
): Promise<number> {
  const maxBytes = limits.maxBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const utf8 = new Utf8Check();
  let bytes = 0;
  // Until 3 bytes arrived it is unknown whether the file starts with a byte order mark.
  let prefix: Buffer | null = Buffer.alloc(0);
  const feed = (chunk: Buffer): void => {
    if (prefix !== null) {
      chunk = prefix.length === 0 ? chunk : Buffer.concat([prefix, chunk]);
      if (chunk.length < BOM.length) {
        prefix = chunk;
        return;
      }
      prefix = null;
      // RFC 8259 §8.1: a parser may ignore a byte order mark; editors on Windows write one.
      if (chunk.subarray(0, 3).equals(BOM)) {
        utf8.check(chunk.subarray(0, 3));
        scanner.skip(3);
        chunk = chunk.subarray(3);
      }
    }
    const bad = utf8.check(chunk);
    if (bad === -1) return scanner.write(chunk);
    const start = scanner.offset;
    if (bad > start) scanner.write(chunk.subarray(0, bad - start)); // an earlier syntax error wins
    throw new JsonSyntaxError('invalid UTF-8 (the file must be JSON encoded as UTF-8)', scanner.positionAt(bad));
  };
  try {
    for await (const raw of body) {
      limits.signal?.throwIfAborted();
      const chunk = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
      bytes += chunk.length;
      if (bytes > maxBytes) throw fileTooLarge(maxBytes);
      feed(chunk);
      if (afterChunk) await afterChunk();
    }
    if (prefix !== null && (prefix as Buffer).length > 0) {
      const rest: Buffer = prefix;
      prefix = null;
      feed(rest);
    }
    const cut = utf8.end();
    if (cut !== -1)
      throw new JsonSyntaxError('invalid UTF-8 (the file ends inside a character)', scanner.positionAt(cut));
    scanner.end();
    if (afterChunk) await afterChunk();
  } catch (err) {
    throw err instanceof JsonSyntaxError ? invalidJson(err.reason, err.position) : err;
  }
  return bytes;
}

/** The 400 every malformed file answers, naming where the problem is. */
export function invalidJson(reason: string, at: JsonPosition): AppError {
  return new AppError(
    'validation',
    'invalid_json',
    `invalid JSON at line ${at.line}, column ${at.column} (byte ${at.offset}): ${reason}`,
    { metadata: { line: String(at.line), column: String(at.column), offset: String(at.offset) } },
  );
}

function fileTooLarge(maxBytes: number): AppError {
  return new AppError('validation', 'file_too_large', `the file is larger than the limit of ${maxBytes} bytes`, {
    metadata: { max_bytes: String(maxBytes) },
  });
}
