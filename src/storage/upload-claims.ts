import { mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import type { Clock } from './blob-urls.js';

/**
 * Single use of the local store's signed upload URLs, without the database and across every
 * process sharing DATA_DIR. Before reading a body, the upload creates the marker
 * `<dir>/<expires>-<id>` with O_EXCL: of any number of racing requests, in one process or
 * many, exactly one creates it; the others are refused. The marker stays after a successful
 * upload, so the URL is refused from then on, even if the object is deleted later. A failed
 * upload (too large, wrong type, client gone) removes its marker, so the client may retry
 * with the same URL; a process killed mid-upload leaves it, and the URL is spent.
 *
 * Markers outlive their URL by {@link SKEW_MARGIN_S}, so a process whose clock lags still
 * sees them, and are then swept (at start and at most every {@link SWEEP_EVERY_MS}).
 */

/** How long after its URL expired a marker is kept. */
const SKEW_MARGIN_S = 3600;
const SWEEP_EVERY_MS = 10 * 60 * 1000;
/** What a committed marker holds; an empty one is an upload in progress (or interrupted). */
const DONE = 'done';

export interface UploadClaim {
  /** The upload is stored: the URL stays spent. */
  commit(): Promise<void>;
  /** The upload failed and left nothing: the URL may be used again until it expires. */
  release(): Promise<void>;
}

export interface UploadClaims {
  /** Claims the grant `id` (expiring at `expires`, epoch s) or throws 403 `signed_url_used`. */
  claim(id: string, expires: number): Promise<UploadClaim>;
  /** Removes the markers of URLs that expired more than the margin ago. */
  sweep(): Promise<void>;
}

/** @example const claims = createUploadClaims(path.join(root, 'claims')); await claims.sweep(); */
export function createUploadClaims(dir: string, now: Clock = Date.now): UploadClaims {
  let lastSweep = 0;

  const sweep = async (): Promise<void> => {
    lastSweep = now();
    const cutoff = Math.floor(now() / 1000) - SKEW_MARGIN_S;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const expired = names.filter((name) => Number(name.split('-', 1)[0]) < cutoff);
    await Promise.all(expired.map((name) => rm(path.join(dir, name), { force: true })));
  };

  return {
    async claim(id, expires) {
      if (!/^[\w-]{16,64}$/.test(id) || !Number.isSafeInteger(expires)) throw new Error('invalid upload grant id');
      if (now() - lastSweep > SWEEP_EVERY_MS) await sweep();
      const marker = path.join(dir, `${expires}-${id}`);
      await mkdir(dir, { recursive: true });
      try {
        await (await open(marker, 'wx', 0o600)).close();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw await usedError(marker);
        throw err;
      }
      return {
        commit: () => writeFile(marker, DONE),
        release: () => rm(marker, { force: true }),
      };
    },
    sweep,
  };
}

async function usedError(marker: string): Promise<AppError> {
  const size = await stat(marker).then(
    (info) => info.size,
    () => 0,
  );
  const detail =
    size > 0
      ? 'this upload URL has been used already; request a new one'
      : 'an upload through this URL is in progress (or was interrupted); request a new URL';
  return new AppError('forbidden', 'signed_url_used', detail);
}
