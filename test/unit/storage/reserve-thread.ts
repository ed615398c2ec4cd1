// A thread of local-blob-store.test.ts: writes one object with an unflushed store, waits until
// the store's staging reserve is full, then exits (the reserve must remove its spares).
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import { createLocalBlobStore } from '../../../src/storage/local-blob-store.js';

const { dir } = (workerData as { data: { dir: string } }).data;
const store = createLocalBlobStore({ dir, secret: 'x'.repeat(32), baseUrl: () => 'http://127.0.0.1:1', flush: false });
await store.init();
await store.put('t/p/content.md', 'written by the thread', { contentType: 'text/markdown' });
const deadline = Date.now() + 10_000;
while ((await readdir(path.join(dir, 'staging'))).length < 32) {
  if (Date.now() > deadline) throw new Error('the reserve was never filled');
  await new Promise((resolve) => setTimeout(resolve, 10));
}
process.exit(0);
