import { Readable } from 'node:stream';
import type { BlobStore } from '../../storage/blob-store.js';

/** Spec limit of one map response ("Map response size: 10 MB"), counted in bytes of JSON. */
export const MAP_RESPONSE_MAX_BYTES = 10_000_000;
/**
 * Bytes kept for everything around `urls` (id, url, cursor, warning, counts): the start URL is
 * at most 8 KiB and the warning a few KiB, so 64 KiB is never reached.
 */
export const MAP_ENVELOPE_RESERVE_BYTES = 64 * 1024;

/** A stretch of a stored list: where it starts and where the next one would. */
export interface MapSlice {
  urls: string[];
  /** The next URL's index and byte offset, or null when the list ended. */
  next: { index: number; byte: number } | null;
}

export interface StoredList {
  count: number;
  bytes: number;
}

const CHUNK_BYTES = 1 << 20;

/**
 * A map's URL list as one object in the blob store: one normalised URL per line, each line
 * ending in `\n` (URLs never contain a raw newline). A response is read with one ranged read
 * starting at a byte offset the cursor carries, so page N of a 100,000-URL map costs what page 1
 * costs, and nothing is kept in memory between requests.
 */
export class MapResultStore {
  constructor(private readonly blobs: BlobStore) {}

  key(teamId: string, mapId: string): string {
    return `teams/${teamId}/maps/${mapId}/urls.txt`;
  }

  async write(teamId: string, mapId: string, urls: readonly string[]): Promise<StoredList> {
    let bytes = 0;
    for (const url of urls) bytes += Buffer.byteLength(url) + 1;
    await this.blobs.put(this.key(teamId, mapId), Readable.from(chunks(urls)), {
      contentType: 'text/plain; charset=utf-8',
    });
    return { count: urls.length, bytes };
  }

  /**
   * URLs from `start` on while their JSON (quoted, comma-separated) fits in `budgetBytes`.
   * At least one URL is returned when any is left, so paging always advances.
   */
  async read(
    teamId: string,
    mapId: string,
    list: StoredList,
    start: { index: number; byte: number },
    budgetBytes: number,
  ): Promise<MapSlice> {
    if (start.index >= list.count || start.byte >= list.bytes) return { urls: [], next: null };
    // Each line costs one byte more than its URL, and its JSON at least three more (quotes, comma).
    const end = Math.min(list.bytes, start.byte + budgetBytes) - 1;
    const text = await this.readRange(this.key(teamId, mapId), start.byte, end);
    const urls: string[] = [];
    let used = 0;
    let offset = 0;
    for (;;) {
      const newline = text.indexOf('\n', offset);
      if (newline < 0) break;
      const url = text.slice(offset, newline);
      const cost = Buffer.byteLength(JSON.stringify(url)) + (urls.length === 0 ? 0 : 1);
      if (used + cost > budgetBytes && urls.length > 0) break;
      urls.push(url);
      used += cost;
      offset = newline + 1;
    }
    const index = start.index + urls.length;
    const byte = start.byte + Buffer.byteLength(text.slice(0, offset));
    return { urls, next: index < list.count ? { index, byte } : null };
  }

  remove(teamId: string, mapId: string): Promise<void> {
    return this.blobs.delete(this.key(teamId, mapId));
  }

  private async readRange(key: string, start: number, end: number): Promise<string> {
    const stream = await this.blobs.stream(key, { start, end });
    if (stream === null) throw new Error(`map list ${key} is missing from the blob store`);
    const parts: Buffer[] = [];
    for await (const part of stream.body) parts.push(part as Buffer);
    return Buffer.concat(parts).toString('utf8');
  }
}

function* chunks(urls: readonly string[]): Generator<Buffer> {
  let lines: string[] = [];
  let size = 0;
  for (const url of urls) {
    lines.push(url);
    size += url.length + 1;
    if (size >= CHUNK_BYTES) {
      yield Buffer.from(`${lines.join('\n')}\n`);
      lines = [];
      size = 0;
    }
  }
  if (lines.length > 0) yield Buffer.from(`${lines.join('\n')}\n`);
}
