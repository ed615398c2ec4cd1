// A thread of batch-file-memory.test.ts: validates a file with the heap limit the test
// set, either streaming (`readBatchFile`) or the naive way (`JSON.parse` of the whole text).
import { createReadStream, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { readBatchFile } from '../../../src/domain/files/batch-file.js';

const { file, mode } = (workerData as { data: { file: string; mode: 'stream' | 'parse' } }).data;
if (mode === 'stream') {
  const summary = await readBatchFile(createReadStream(file), { maxDepth: 32 });
  parentPort!.postMessage({ items: summary.items });
} else {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown[];
  parentPort!.postMessage({ items: parsed.length });
}
