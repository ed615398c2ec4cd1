import path from 'node:path';
import type { AppConfig } from '../config.js';
import type { BlobStore } from './blob-store.js';
import { createLocalBlobStore } from './local-blob-store.js';

export interface BlobStoreContext {
  /** DATA_DIR; local objects live in `<dataDir>/objects`. */
  dataDir: string;
  /** SIGNING_SECRET (or the generated one) for signed local URLs. */
  secret: string;
  /** Public base URL of the service, read when a URL is signed (the port is known after listen). */
  baseUrl: () => string;
  /**
   * Whether the database flushes its commits to disk (Postgres `fsync`): local objects are
   * flushed when it does. The embedded PGlite runs with fsync off, so its rows survive a crash
   * of the process but not a power loss; flushing the objects they point to would make a
   * scrape slower (2-4 ms on these machines) without making it more durable.
   */
  databaseFlushes: boolean;
}

/**
 * The store the configuration asks for: S3 when `S3_ENDPOINT` is set, else the directory
 * `DATA_DIR/objects` served by the service. The caller runs `init()`.
 *
 * @example
 * const blobs = await createBlobStore(config, { dataDir: config.dataDir, secret, baseUrl: () => publicBaseUrl, databaseFlushes: true });
 * await blobs.init();
 */
export async function createBlobStore(config: Pick<AppConfig, 's3'>, context: BlobStoreContext): Promise<BlobStore> {
  if (config.s3) {
    // Loaded only when configured: the S3 client costs ~40 MB in every thread that imports it.
    const { createS3BlobStore } = await import('./s3-blob-store.js');
    return createS3BlobStore({ ...config.s3, spoolDir: path.join(context.dataDir, 'spool') });
  }
  return createLocalBlobStore({
    dir: path.join(context.dataDir, 'objects'),
    secret: context.secret,
    baseUrl: context.baseUrl,
    flush: context.databaseFlushes,
  });
}
