import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createBlobUrlVerifier } from '../../src/storage/blob-urls.js';
import { createLocalBlobStore } from '../../src/storage/local-blob-store.js';
import { createBlobTestApp, listen } from '../unit/storage/blob-app.js';
import { describeBlobStoreContract } from './blob-store.contract.js';

const SECRET = 'contract-test-secret-0123456789abcdef';

describeBlobStoreContract('local directory served by a listening server', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'blobs-local-'));
  let origin = '';
  const store = createLocalBlobStore({ dir, secret: SECRET, baseUrl: () => origin });
  const server = await listen(createBlobTestApp(store, createBlobUrlVerifier(SECRET)));
  origin = server.origin;
  return {
    store,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
