import type { Readable } from 'node:stream';
import { AppError } from '../errors.js';
import { RangeNotSatisfiableError } from './blob-store.js';
import type { BlobInfo, BlobStore, ByteRange } from './blob-store.js';
import { parseRangeHeader } from './byte-range.js';

/** The conditional and range headers of a GET or HEAD, as sent. */
export interface BlobReadRequest {
  method: 'GET' | 'HEAD';
  range?: string | null;
  ifRange?: string | null;
  ifNoneMatch?: string | null;
}

/** What to answer: the transport turns it into status, headers and body. */
export interface BlobReadPlan {
  status: 200 | 206 | 304 | 416;
  info: BlobInfo;
  /** The bytes served with 206. */
  range: ByteRange | null;
  /** The bytes to send (GET with 200 or 206); the caller must consume or destroy it. */
  body: Readable | null;
}

const ATTEMPTS = 3;

/**
 * Decides how to answer a GET or HEAD of an object with HTTP semantics (ranges, If-Range,
 * If-None-Match) and opens the bytes. Null when the object does not exist. A ranged read
 * needs the size first; if the object is replaced between that look and the read, the
 * read is retried so headers and bytes always belong to the same version.
 */
export async function readBlobForHttp(
  store: BlobStore,
  key: string,
  request: BlobReadRequest,
): Promise<BlobReadPlan | null> {
  if (request.method === 'GET' && !request.range && !request.ifNoneMatch) {
    // The common case needs no size up front: one open gives bytes and metadata together.
    const opened = await store.stream(key);
    return opened && { status: 200, info: opened.info, range: null, body: opened.body };
  }
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const info = await store.head(key);
    if (!info) return null;
    if (request.ifNoneMatch && etagListMatches(request.ifNoneMatch, info.etag)) {
      return { status: 304, info, range: null, body: null };
    }
    let wanted = parseRangeHeader(request.range, info.size);
    if (request.ifRange && !ifRangeHolds(request.ifRange, info)) wanted = { kind: 'none' };
    if (wanted.kind === 'unsatisfiable') return { status: 416, info, range: null, body: null };
    const range = wanted.kind === 'range' ? wanted.range : null;
    const status = range ? 206 : 200;
    if (request.method === 'HEAD') return { status, info, range, body: null };
    let opened;
    try {
      opened = await store.stream(key, range ?? undefined);
    } catch (err) {
      if (err instanceof RangeNotSatisfiableError) continue; // shrunk since head(): look again
      throw err;
    }
    if (!opened) return null;
    if (opened.info.etag === info.etag) return { status, info: opened.info, range: opened.range, body: opened.body };
    opened.body.destroy();
  }
  throw new AppError('unavailable', 'blob_changing', 'the object kept changing while it was read; retry the request');
}

/** If-None-Match: `*` or a list of (possibly weak) entity tags; weak comparison. */
function etagListMatches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === `"${etag}"`);
}

/** If-Range: a strong entity tag that must match exactly, or the exact Last-Modified date. */
function ifRangeHolds(header: string, info: BlobInfo): boolean {
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === `"${info.etag}"`;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(date / 1000) === Math.floor(info.lastModified.getTime() / 1000);
}
