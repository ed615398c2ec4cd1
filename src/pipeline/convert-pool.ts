import type { Worker } from 'node:worker_threads';
import { AppError, type ErrorKind } from '../errors.js';
import type { Logger } from '../logger.js';
import { moduleUrl } from '../runtime/module-url.js';
import { startTsWorker } from '../runtime/worker-thread.js';
import type { ContentInput, ContentOptions, ContentResult } from './types.js';

export interface ConvertRequest {
  id: number;
  input: ContentInput;
  options: ContentOptions;
  /** Identifies `options` so the worker compiles them once. */
  optionsKey: string;
}

export type ConvertResponse =
  { id: number; result: ContentResult } | { id: number; error: { kind: ErrorKind; code: string; detail: string } };

/** Runs the content pipeline on other threads. */
export interface ConvertPool {
  convert(input: ContentInput, options: ContentOptions, optionsKey: string): Promise<ContentResult>;
  close(): Promise<void>;
}

/**
 * Young generation of a conversion thread: large enough that a page's DOM (several MB, garbage
 * within ~10 ms) dies young instead of being promoted. With 8 or 16 MB a page took 13.4-14.5 ms
 * to convert, with 48 MB (V8's own default here) 10.7-11.7 ms, the same as on the main thread;
 * the price is up to ~40 MB more resident memory per thread under load (docs/benchmarks.md,
 * "Memory"). Set explicitly so it does not depend on V8's sizing heuristics.
 */
const YOUNG_GENERATION_MB = 48;

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (r: ContentResult) => void; reject: (e: unknown) => void }>;
}

/**
 * `size` conversion threads, each taking the next page from a shared round robin (pages are
 * similar in cost). A thread that dies fails its pages with a 500 and is replaced.
 */
export function createConvertPool(size: number, logger: Logger): ConvertPool {
  const slots: Slot[] = [];
  let nextId = 1;
  let turn = 0;
  let closed = false;

  const spawn = (index: number): void => {
    const worker = startTsWorker(moduleUrl('./convert-worker.ts', import.meta.url), {
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, pending: new Map() };
    worker.on('message', (message: ConvertResponse | { ready: true }) => {
      if (!('id' in message)) return;
      const task = slot.pending.get(message.id);
      if (!task) return;
      slot.pending.delete(message.id);
      if ('result' in message) task.resolve(message.result);
      else task.reject(new AppError(message.error.kind, message.error.code, message.error.detail));
    });
    worker.on('error', (err) => logger.error({ err }, 'conversion thread failed'));
    worker.on('exit', (code) => {
      for (const task of slot.pending.values()) {
        task.reject(new AppError('internal', 'internal_server_error', `the conversion thread exited (code ${code})`));
      }
      slot.pending.clear();
      if (!closed) spawn(index);
    });
    worker.unref();
    slots[index] = slot;
  };
  for (let i = 0; i < size; i++) spawn(i);

  return {
    convert(input, options, optionsKey) {
      // The least busy thread, ties broken round robin.
      const start = turn++ % slots.length;
      let slot = slots[start]!;
      for (let i = 1; i < slots.length; i++) {
        const candidate = slots[(start + i) % slots.length]!;
        if (candidate.pending.size < slot.pending.size) slot = candidate;
      }
      const id = nextId++;
      return new Promise<ContentResult>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        slot.worker.postMessage({ id, input, options, optionsKey } satisfies ConvertRequest);
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
