import type { Worker } from 'node:worker_threads';
import { AppError, type ErrorKind } from '../errors.js';
import type { Logger } from '../logger.js';
import { moduleUrl } from '../runtime/module-url.js';
import { startTsWorker } from '../runtime/worker-thread.js';
import type { ContentPipeline } from './content-pipeline.js';
import type { PreparedContentOptions } from './options.js';
import type { ContentInput, ContentOptions, ContentResult } from './types.js';

export interface ConvertRequest {
  id: number;
  input: ContentInput;
  options: ContentOptions;
  /** Identifies `options` so the worker compiles them once. */
  optionsKey: string;
}

export type ConvertResponse =
  | { id: number; result: ContentResult }
  | { id: number; error: { kind: ErrorKind; code: string; detail: string; metadata?: Record<string, string> } };

/**
 * What a failed conversion answers: the pipeline's own AppError (a request error such as a bad
 * selector), anything else as a 500 carrying the stack. The same on a conversion thread and on
 * the calling thread.
 */
export function conversionError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('internal', 'internal_server_error', (err as Error).stack ?? String(err));
}

/** A page's options in the three forms the pool needs. */
export interface ConvertOptions {
  /** As the request gave them (posted to a thread, which compiles them once per `key`). */
  raw: ContentOptions;
  key: string;
  /** Compiled on this thread, for a page converted here. */
  prepared: PreparedContentOptions;
}

/** Runs the content pipeline on other threads (and on this one when they are all busy). */
export interface ConvertPool {
  /**
   * Converts a page. When `signal` aborts while the page still waits for a thread, the page is
   * dropped and the promise rejects with the signal's reason (a page a thread already holds is
   * converted anyway).
   */
  convert(input: ContentInput, options: ConvertOptions, signal?: AbortSignal): Promise<ContentResult>;
  close(): Promise<void>;
}

export interface ConvertPoolOptions {
  /** Conversion threads (≥ 1). */
  size: number;
  logger: Logger;
  /**
   * Work sharing: when every thread already has its pages and more wait, the calling thread
   * converts the oldest waiting page (of at most HELP_MAX_CHARS) itself, one at a time between
   * its I/O. Unset: pages only wait for a thread.
   */
  helper?: ContentPipeline;
}

/**
 * Young generation of a conversion thread: large enough that a page's DOM (several MB, garbage
 * within ~10 ms) dies young instead of being promoted. With 8 or 16 MB a page took 13.4-14.5 ms
 * to convert, with 48 MB (V8's own default here) 10.7-11.7 ms, the same as on the main thread;
 * the price is up to ~40 MB more resident memory per thread under load (docs/benchmarks.md,
 * "Memory"). Set explicitly so it does not depend on V8's sizing heuristics.
 */
const YOUNG_GENERATION_MB = 48;

/**
 * Pages a thread holds at once: the one it converts and the next, so it never idles while a
 * result travels back. The rest wait in the pool's queue, in arrival order.
 */
const PAGES_PER_THREAD = 2;

/**
 * Largest page (UTF-16 characters of HTML) the calling thread converts: ~256 KB converts in
 * 50-80 ms here, the longest its event loop is held. Larger pages always wait for a thread.
 */
export const HELP_MAX_CHARS = 256 * 1024;

interface Task {
  id: number;
  input: ContentInput;
  options: ConvertOptions;
  resolve: (r: ContentResult) => void;
  reject: (e: unknown) => void;
}

/** A page small enough for the calling thread to convert. */
const helpable = (task: Task): boolean => task.input.text.length <= HELP_MAX_CHARS;

interface Slot {
  worker: Worker;
  pending: Map<number, Task>;
}

/**
 * `options.size` conversion threads fed from one queue in arrival order, each holding at most
 * PAGES_PER_THREAD pages. With a `helper` pipeline the calling thread takes the oldest waiting
 * page when all threads are full: on a small machine the API's event loop has spare CPU that
 * would otherwise sit idle while pages queue (docs/benchmarks.md). A thread that dies fails its
 * pages with a 500 and is replaced; waiting pages go to its successor.
 */
export function createConvertPool(options: ConvertPoolOptions): ConvertPool {
  const { size, logger, helper } = options;
  const slots: Slot[] = [];
  const waiting: Task[] = [];
  let nextId = 1;
  let closed = false;
  let helping = false;

  const dispatch = (): void => {
    while (waiting.length > 0) {
      let slot: Slot | undefined;
      for (const candidate of slots) {
        if (candidate.pending.size < PAGES_PER_THREAD && (!slot || candidate.pending.size < slot.pending.size)) {
          slot = candidate;
        }
      }
      if (!slot) break;
      const task = waiting.shift()!;
      slot.pending.set(task.id, task);
      slot.worker.postMessage({
        id: task.id,
        input: task.input,
        options: task.options.raw,
        optionsKey: task.options.key,
      } satisfies ConvertRequest);
    }
    if (helper && !helping && waiting.some(helpable)) {
      helping = true;
      // After the I/O already due, so the event loop keeps answering between two conversions.
      setImmediate(helpOnce);
    }
  };

  const helpOnce = (): void => {
    helping = false;
    const index = waiting.findIndex(helpable);
    if (index < 0 || !helper) return;
    const task = waiting.splice(index, 1)[0]!;
    try {
      task.resolve(helper.process(task.input, task.options.prepared));
    } catch (err) {
      task.reject(conversionError(err));
    }
    dispatch();
  };

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
      else {
        const { kind, code, detail, metadata } = message.error;
        task.reject(new AppError(kind, code, detail, { metadata }));
      }
      dispatch();
    });
    worker.on('error', (err) => logger.error({ err }, 'conversion thread failed'));
    worker.on('exit', (code) => {
      for (const task of slot.pending.values()) {
        task.reject(new AppError('internal', 'internal_server_error', `the conversion thread exited (code ${code})`));
      }
      slot.pending.clear();
      if (closed) return;
      spawn(index);
      dispatch();
    });
    worker.unref();
    slots[index] = slot;
  };
  for (let i = 0; i < size; i++) spawn(i);

  return {
    convert(input, convertOptions, signal) {
      if (closed) {
        return Promise.reject(new AppError('internal', 'internal_server_error', 'the conversion pool is closed'));
      }
      if (signal?.aborted) return Promise.reject(signal.reason);
      let task!: Task;
      const done = new Promise<ContentResult>((resolve, reject) => {
        task = { id: nextId++, input, options: convertOptions, resolve, reject };
        waiting.push(task);
        dispatch();
      });
      if (!signal) return done;
      // Nobody waits for the page any more (the client went away): do not spend CPU on it.
      const drop = () => {
        const index = waiting.indexOf(task);
        if (index < 0) return;
        waiting.splice(index, 1);
        task.reject(signal.reason);
      };
      signal.addEventListener('abort', drop, { once: true });
      return done.finally(() => signal.removeEventListener('abort', drop));
    },
    async close() {
      closed = true;
      for (const task of waiting.splice(0)) {
        task.reject(new AppError('internal', 'internal_server_error', 'the conversion pool closed'));
      }
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
