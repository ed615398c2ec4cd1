import { z } from 'zod';
import { parseTargetUrl } from '../../engine/target-url.js';
import { AppError, errors } from '../../errors.js';
import { validationErrorFrom } from '../../validation.js';
import { BATCH_LIMITS, BatchItemInput, CreateBatchInput } from '../batches/batch.schema.js';
import { CaptureTooLargeError, JsonScanner } from './json-scanner.js';
import type { JsonPosition, JsonScanHooks, JsonValueKind } from './json-scanner.js';
import { scanJsonStream } from './json-validation.js';
import type { ByteSource, JsonFileLimits } from './json-validation.js';

/**
 * `purpose: "batch"` files, read as a stream. Three layouts are accepted:
 *
 * - a JSON array of items: `[{"custom_id": "a", "url": "https://…"}, …]`;
 * - an object with an `items` array and batch options beside it, the body of `POST /v1/batches`
 *   (`{"items": […], "parser": {…}, "country": "US"}`), as the public Files guide uploads;
 * - JSON Lines: one item object per line.
 *
 * Every item passes the rules of inline items (the same zod schema, URL syntax, unique
 * `custom_id`, at most 10,000) and errors name it (`items[1234].url: …`) with its line. Only one
 * item at a time is held, so a 200 MB file validates in bounded memory; valid items are handed
 * to `onItem` in order, for a caller that stores them as it reads.
 */

export type BatchFileItem = z.output<typeof BatchItemInput>;

/** Batch options of the object layout: the fields of `POST /v1/batches` except `items` and `file_id`. */
const { items: _items, file_id: _fileId, ...optionsShape } = CreateBatchInput.shape;
export const BatchFileOptionsInput = z.strictObject(optionsShape);
export type BatchFileOptions = z.output<typeof BatchFileOptionsInput>;

export interface BatchFileLimits extends JsonFileLimits {
  /** Default 10,000, the limit of a batch. */
  maxItems?: number;
  /** Largest item (and largest batch option) in bytes; default 1 MiB. */
  maxItemBytes?: number;
  /** The outbound policy beyond URL syntax (the service's guard); throws an AppError to refuse. */
  checkUrl?: (url: URL, field: string) => void;
  /** Receives each valid item in order, awaited before more of the file is read. */
  onItem?: (item: BatchFileItem, index: number) => void | Promise<void>;
}

export interface BatchFileSummary {
  bytes: number;
  format: 'array' | 'object' | 'jsonl';
  items: number;
  /** The object layout's batch options (empty for the other layouts). */
  options: BatchFileOptions;
}

const DEFAULT_MAX_ITEM_BYTES = 1024 * 1024;
const LAYOUTS = 'a batch file holds a JSON array of items, an object with an "items" array, or JSON Lines of items';

/**
 * Validates a batch file and hands its items to `limits.onItem`. Throws a 400 AppError at
 * the first problem: `invalid_json`, `file_too_large` or `validation_error` (with `field`,
 * `line`, `column` and `offset` in metadata).
 *
 * @example
 * const items: BatchFileItem[] = [];
 * const summary = await readBatchFile(opened.body, { maxDepth: 32, onItem: (item) => void items.push(item) });
 */
export async function readBatchFile(body: ByteSource, limits: BatchFileLimits): Promise<BatchFileSummary> {
  const maxItemBytes = limits.maxItemBytes ?? DEFAULT_MAX_ITEM_BYTES;
  const reader = new BatchFileReader(limits, maxItemBytes);
  const scanner = new JsonScanner({
    maxDepth: limits.maxDepth,
    multipleValues: true,
    hooks: reader,
    eventDepth: 0,
    maxCaptureBytes: maxItemBytes,
  });
  reader.scanner = scanner;
  let bytes: number;
  try {
    bytes = await scanJsonStream(body, scanner, limits, () => reader.flush());
  } catch (err) {
    if (!(err instanceof CaptureTooLargeError)) throw err;
    throw reader.tooLarge();
  }
  return reader.summary(bytes);
}

/** The scanner's hooks: decides the layout from the first value, then collects items. */
class BatchFileReader implements JsonScanHooks {
  scanner!: JsonScanner;
  private format: BatchFileSummary['format'] | null = null;
  /** The first top-level value is an object: the object layout, or the first JSON Lines item. */
  private firstObject: { members: Map<string, unknown>; bytes: number; at: JsonPosition } | null = null;
  private memberKey = '';
  private inItems = false;
  private itemsSeen = false;
  private count = 0;
  private itemAt: JsonPosition = { offset: 0, line: 1, column: 1 };
  private readonly customIds = new Map<string, number>();
  private ready: [BatchFileItem, number][] = [];

  constructor(
    private readonly limits: BatchFileLimits,
    private readonly maxItemBytes: number,
  ) {}

  valueStart(depth: number, kind: JsonValueKind, at: JsonPosition): boolean {
    if (depth === 0 && this.scanner.valueCount === 0) return this.firstValue(kind, at);
    if (depth === 0) {
      if (this.format !== 'jsonl') throw located(errors.validation(`body: ${LAYOUTS}; found more after it`), at);
      return this.itemStart(at);
    }
    if (this.format === 'array' && depth === 1) return this.itemStart(at);
    if (this.inItems && depth === 2) return this.itemStart(at);
    if (this.firstObject && depth === 1) {
      if (this.memberKey !== 'items' || kind !== 'array') return true; // a batch option, or a field of a JSON Lines item
      if (this.itemsSeen) throw located(errors.validation('items: appears twice'), at);
      this.itemsSeen = this.inItems = true;
    }
    return false;
  }

  valueEnd(depth: number, raw: Buffer | null): void {
    if (raw === null) {
      if (this.inItems && depth === 1) this.inItems = false;
      if (depth === 0 && this.firstObject) this.firstObjectEnd();
      return;
    }
    if (depth === 1 && this.firstObject && !this.inItems) return this.member(raw);
    this.item(JSON.parse(raw.toString('utf8')));
  }

  key(depth: number, raw: Buffer): void {
    if (depth === 1 && this.firstObject) this.memberKey = JSON.parse(raw.toString('utf8')) as string;
  }

  /** Hands the items completed so far to `onItem`. */
  async flush(): Promise<void> {
    const ready = this.ready;
    this.ready = [];
    for (const [item, index] of ready) await this.limits.onItem?.(item, index);
  }

  tooLarge(): AppError {
    const field = this.firstObject && !this.inItems ? 'body' : `items[${this.count}]`;
    const what = field === 'body' ? 'a member of the top-level object' : 'the item';
    return located(errors.validation(`${field}: ${what} is larger than ${this.maxItemBytes} bytes`), this.itemAt);
  }

  summary(bytes: number): BatchFileSummary {
    if (this.count === 0) throw errors.validation('items: must contain at least one item');
    let options: BatchFileOptions = {};
    if (this.format === 'object') {
      const members = Object.fromEntries(this.firstObject?.members ?? []);
      const parsed = BatchFileOptionsInput.safeParse(members);
      if (!parsed.success) throw validationErrorFrom(parsed.error);
      options = parsed.data;
    }
    return { bytes, format: this.format!, items: this.count, options };
  }

  private firstValue(kind: JsonValueKind, at: JsonPosition): boolean {
    this.itemAt = at;
    if (kind === 'array') {
      this.format = 'array';
      this.scanner.eventDepth = 1;
    } else if (kind === 'object') {
      this.firstObject = { members: new Map(), bytes: 0, at };
      this.scanner.eventDepth = 2;
    } else {
      throw located(errors.validation(`body: ${LAYOUTS}; found a ${kind}`), at);
    }
    return false;
  }

  private member(raw: Buffer): void {
    const first = this.firstObject!;
    first.bytes += raw.length;
    if (first.bytes > this.maxItemBytes) throw new CaptureTooLargeError(1, this.maxItemBytes);
    first.members.set(this.memberKey, JSON.parse(raw.toString('utf8')));
  }

  private firstObjectEnd(): void {
    const first = this.firstObject!;
    if (this.itemsSeen) {
      this.format = 'object';
      return;
    }
    // No items array: the object was the first line of a JSON Lines file.
    this.format = 'jsonl';
    this.firstObject = null;
    this.scanner.eventDepth = 0;
    this.itemAt = first.at;
    this.item(Object.fromEntries(first.members));
  }

  private itemStart(at: JsonPosition): boolean {
    const max = this.limits.maxItems ?? BATCH_LIMITS.maxItems;
    if (this.count >= max) throw located(errors.validation(`items: at most ${max} items per batch`), at);
    this.itemAt = at;
    return true;
  }

  /** Checks one item as the inline path does and queues it for `onItem`. */
  private item(value: unknown): void {
    const index = this.count;
    const field = `items[${index}]`;
    const parsed = BatchItemInput.safeParse(value);
    if (!parsed.success) throw located(validationErrorFrom(parsed.error, field), this.itemAt, index);
    const item = parsed.data;
    try {
      const url = parseTargetUrl(item.url, `${field}.url`);
      this.limits.checkUrl?.(url, `${field}.url`);
    } catch (err) {
      throw err instanceof AppError ? located(err, this.itemAt, index, `${field}.url`) : err;
    }
    const first = this.customIds.get(item.custom_id);
    if (first !== undefined) {
      const duplicate = `${field}.custom_id: duplicate custom_id ${JSON.stringify(item.custom_id)} (also items[${first}])`;
      throw located(errors.validation(duplicate), this.itemAt, index, `${field}.custom_id`);
    }
    this.customIds.set(item.custom_id, index);
    this.ready.push([item, index]);
    this.count++;
  }
}

/** `err` with where in the file it happened: in the detail (for people) and the metadata. */
function located(err: AppError, at: JsonPosition, index?: number, field?: string): AppError {
  const metadata: Record<string, string> = {
    ...err.metadata,
    line: String(at.line),
    column: String(at.column),
    offset: String(at.offset),
  };
  if (field !== undefined) metadata.field = field;
  if (index !== undefined) metadata.item_index = String(index);
  const where = index === undefined ? 'at' : 'in the item at';
  return new AppError(err.kind, err.code, `${err.detail} (${where} line ${at.line}, column ${at.column})`, {
    metadata,
    cause: err.cause,
  });
}
