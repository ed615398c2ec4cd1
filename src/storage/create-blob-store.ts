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
}

/**
 * The store the configuration asks for: S3 when `S3_ENDPOINT` is set, else the directory
 * `DATA_DIR/objects` served by the service. The caller runs `init()`.
 *
 * @example
 * const blobs = await createBlobStore(config, { dataDir: config.dataDir, secret, baseUrl: () => publicBaseUrl });
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
  });
}
