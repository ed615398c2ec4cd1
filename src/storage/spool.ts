import { randomUUID } from 'node:crypto';
import { mkdir, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { payloadTooLarge } from './blob-store.js';

/** A stream's bytes, counted and held until they can be uploaded with a known length. */
export type Spooled =
  { kind: 'memory'; buffer: Buffer } | { kind: 'file'; path: string; size: number; cleanup: () => Promise<void> };

export interface SpoolOptions {
  /** Directory of the temporary file used once the body outgrows `memoryLimit`. */
  dir: string;
  maxBytes?: number;
  memoryLimit?: number;
}

/**
 * Reads `body` to the end, in memory while small and in a temporary file after that, and
 * fails with `payload_too_large` as soon as it exceeds `maxBytes`. Uploading with a known
 * length lets S3 store small bodies with one atomic PUT and keeps memory bounded for big ones.
 */
export async function spool(body: Readable, options: SpoolOptions): Promise<Spooled> {
  const memoryLimit = options.memoryLimit ?? 8 * 1024 * 1024;
  const chunks: Buffer[] = [];
  let size = 0;
  let file: { path: string; handle: FileHandle } | null = null;
  try {
    for await (const raw of body) {
      const chunk = typeof raw === 'string' ? Buffer.from(raw) : (raw as Buffer);
      size += chunk.length;
      if (options.maxBytes !== undefined && size > options.maxBytes) throw payloadTooLarge(options.maxBytes);
      if (!file && size <= memoryLimit) {
        chunks.push(chunk);
        continue;
      }
      if (!file) {
        await mkdir(options.dir, { recursive: true });
        const filePath = path.join(options.dir, `spool-${randomUUID()}.tmp`);
        file = { path: filePath, handle: await open(filePath, 'wx', 0o600) };
        await file.handle.writeFile(Buffer.concat(chunks));
        chunks.length = 0;
      }
      await file.handle.write(chunk);
    }
  } catch (err) {
    if (file) {
      await file.handle.close();
      await rm(file.path, { force: true });
    }
    throw err;
  }
  if (!file) return { kind: 'memory', buffer: Buffer.concat(chunks, size) };
  await file.handle.close();
  const filePath = file.path;
  return { kind: 'file', path: filePath, size, cleanup: () => rm(filePath, { force: true }) };
}
