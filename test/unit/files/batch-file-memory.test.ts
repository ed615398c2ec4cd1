import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTsWorker } from '../../../src/runtime/worker-thread.js';

/**
 * Streaming shown by memory, not time: a 20 MB batch file (10,000 items) is validated in a
 * thread whose JavaScript heap is capped at 24 MB. The control, `JSON.parse` of the whole text
 * under the same cap, runs out of memory, so the cap is tight enough to catch a reader that
 * held the file.
 */
const HEAP_LIMIT_MB = 24;
let dir = '';
let file = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'batch-file-memory-'));
  file = path.join(dir, 'batch.json');
  const out = createWriteStream(file);
  out.write('[\n');
  const note = 'n'.repeat(480);
  for (let i = 0; i < 10_000; i++) {
    const item = {
      custom_id: `item-${i}`,
      url: `https://shop.example/p/${i}`,
      metadata: { a: note, b: note, c: note, d: note },
    };
    if (!out.write(`${i === 0 ? '' : ',\n'}${JSON.stringify(item)}`)) await once(out, 'drain');
  }
  out.end('\n]\n');
  await once(out, 'finish');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function runThread(mode: 'stream' | 'parse'): Promise<{ items: number } | { error: string }> {
  const worker = startTsWorker(new URL('./validate-thread.ts', import.meta.url), {
    data: { file, mode },
    resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB, maxYoungGenerationSizeMb: 4 },
  });
  return new Promise((resolve) => {
    worker.once('message', (message: { items: number }) => resolve({ items: message.items }));
    worker.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  }).finally(() => worker.terminate()) as Promise<{ items: number } | { error: string }>;
}

describe('batch file validation memory', () => {
  it(`validates a 20 MB file of 10,000 items within a ${HEAP_LIMIT_MB} MB heap, where JSON.parse cannot`, async () => {
    expect((await stat(file)).size).toBeGreaterThan(20 * 1000 * 1000);
    expect(await runThread('stream')).toEqual({ items: 10_000 });
    expect(await runThread('parse')).toEqual({ error: 'ERR_WORKER_OUT_OF_MEMORY' });
  });
});
