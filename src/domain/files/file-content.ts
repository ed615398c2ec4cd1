import { AppError } from '../../errors.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { MAX_INPUT_DEPTH } from '../../validation.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { readBatchFile } from './batch-file.js';
import type { BatchFileItem, BatchFileSummary } from './batch-file.js';
import type { FilePurpose } from './file.entity.js';
import { validateJsonFile } from './json-validation.js';

/** What complete learned about a valid upload. */
export interface CheckedUpload {
  etag: string;
  bytes: number;
  /** Batch files: the number of items. */
  items: number | null;
}

/** Not there to check: the upload never happened (or its bytes are gone). */
export function uploadNotFound(id: string): AppError {
  return new AppError(
    'not_found',
    'upload_not_found',
    `file ${JSON.stringify(id)} has no uploaded content: PUT the JSON to its upload_url first`,
  );
}

/**
 * Checks an upload as complete does, reading it once as a stream: size (S3 does not stop a
 * larger upload), then the JSON (and, for batch files, every item). The bytes checked are
 * the version `etag` names. Throws 400s for what is wrong with the file, 404 when it is missing.
 */
export async function checkUpload(
  blobs: BlobStore,
  key: string,
  file: { id: string; purpose: FilePurpose },
  limits: { maxBytes: number; guard: OutboundGuard; signal?: AbortSignal },
): Promise<CheckedUpload> {
  const opened = await blobs.stream(key);
  if (!opened) throw uploadNotFound(file.id);
  const { info, body } = opened;
  try {
    if (info.size > limits.maxBytes) {
      throw new AppError(
        'validation',
        'file_too_large',
        `the file is larger than the limit of ${limits.maxBytes} bytes`,
        {
          metadata: { max_bytes: String(limits.maxBytes), bytes: String(info.size) },
        },
      );
    }
    const json = { maxDepth: MAX_INPUT_DEPTH, maxBytes: limits.maxBytes, signal: limits.signal };
    if (file.purpose === 'batch') {
      const summary = await readBatchFile(body, { ...json, checkUrl: guardCheck(limits.guard) });
      return { etag: info.etag, bytes: summary.bytes, items: summary.items };
    }
    const summary = await validateJsonFile(body, json);
    return { etag: info.etag, bytes: summary.bytes, items: null };
  } finally {
    body.destroy();
  }
}

/** Reads a completed batch file's items and options (validated again: the rules may have changed). */
export async function readBatchContent(
  blobs: BlobStore,
  key: string,
  id: string,
  limits: { maxBytes: number; guard: OutboundGuard },
): Promise<{ items: BatchFileItem[]; options: BatchFileSummary['options'] }> {
  const opened = await blobs.stream(key);
  if (!opened) throw new AppError('not_found', 'file_not_found', `file ${JSON.stringify(id)} does not exist`);
  const items: BatchFileItem[] = [];
  try {
    const summary = await readBatchFile(opened.body, {
      maxDepth: MAX_INPUT_DEPTH,
      maxBytes: limits.maxBytes,
      checkUrl: guardCheck(limits.guard),
      onItem: (item) => void items.push(item),
    });
    return { items, options: summary.options };
  } finally {
    opened.body.destroy();
  }
}

/** The outbound policy on an item's URL, its errors naming the item's field as inline errors do. */
function guardCheck(guard: OutboundGuard): (url: URL, field: string) => void {
  return (url, field) => {
    try {
      guard.checkUrl(url);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.kind, err.code, `${field}: ${err.detail}`);
      throw err;
    }
  };
}
