import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createBlobUrlVerifier } from '../../src/storage/blob-urls.js';
import { createLocalBlobStore } from '../../src/storage/local-blob-store.js';
import { createBlobTestApp, listen } from '../unit/storage/blob-app.js';
import { describeBlobStoreContract } from './blob-store.contract.js';

const SECRET = 'contract-test-secret-0123456789abcdef';

for (const flush of [true, false]) {
  const name = flush
    ? 'local directory served by a listening server'
    : 'local directory, unflushed (small objects through the staging reserve)';
  describeBlobStoreContract(name, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'blobs-local-'));
    let origin = '';
    const store = createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => origin, flush });
    const server = await listen(createBlobTestApp(store, createBlobUrlVerifier(SECRET)));
    origin = server.origin;
    return {
      store,
      async close() {
        await server.close();
        // maxRetries: an unflushed store may still be topping up its staging reserve.
        await rm(dir, { recursive: true, force: true, maxRetries: 5 });
      },
    };
  });
}
