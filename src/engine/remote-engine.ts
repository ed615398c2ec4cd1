import { AppError, type ErrorKind } from '../errors.js';
import { EngineFallbackError } from './errors.js';
import type { EngineRegistry } from './registry.js';
import type { PageRequest, PageSnapshot, ScrapeEngine } from './types.js';

/**
 * Engines shared across the threads of one process. A browser engine holds a Chromium process;
 * the batch-runner and crawl-runner threads do not start their own but send each page to the
 * process's main thread, whose engine (one Chromium, one bounded pool of pages) renders it.
 * The messages travel over the thread's port (`parentPort` in the job, the Bree worker in the
 * supervisor); snapshots come back with their bytes.
 */

/** A thread asks the main thread to fetch a page with one of its engines. */
export interface EngineFetchMessage {
  type: 'engine.fetch';
  id: number;
  engine: string;
  req: PageRequest;
}

/** The thread no longer needs the answer (its deadline passed, the job is stopping). */
export interface EngineAbortMessage {
  type: 'engine.abort';
  id: number;
}

export type EngineRequestMessage = EngineFetchMessage | EngineAbortMessage;

/** An error as it crosses threads: the classes the registry and the API tell apart survive. */
export type SerializedEngineError =
  | { name: 'AppError'; kind: ErrorKind; code: string; detail: string }
  | { name: 'EngineFallbackError'; reason: string }
  | { name: 'Error'; message: string };

export interface EngineReplyMessage {
  type: 'engine.reply';
  id: number;
  snapshot?: PageSnapshot;
  error?: SerializedEngineError;
}

export function isEngineRequest(message: unknown): message is EngineRequestMessage {
  const type = (message as { type?: unknown } | null)?.type;
  return type === 'engine.fetch' || type === 'engine.abort';
}

export function isEngineReply(message: unknown): message is EngineReplyMessage {
  return (message as { type?: unknown } | null)?.type === 'engine.reply';
}

/** How a thread reaches its process's main thread. */
export interface EngineChannel {
  send(message: EngineRequestMessage): void;
  /** Registers the handler of every reply (called once). */
  onReply(handler: (message: EngineReplyMessage) => void): void;
}

/**
 * The thread side: an engine with the id, priority and capabilities of the main thread's
 * engine, whose pages are fetched there. Aborting the signal rejects at once with its reason
 * and tells the main thread to stop the page.
 *
 * @example
 * const engine = createRemoteEngine(playwright, channel); // in a job thread's registry
 */
export function createRemoteEngine(
  template: Pick<ScrapeEngine, 'id' | 'priority' | 'capabilities' | 'concurrency'>,
  channel: EngineChannel,
): ScrapeEngine {
  const pending = new Map<number, { resolve: (s: PageSnapshot) => void; reject: (e: unknown) => void }>();
  let next = 0;
  channel.onReply((reply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.snapshot) waiting.resolve(reviveSnapshot(reply.snapshot));
    else waiting.reject(deserializeError(reply.error ?? { name: 'Error', message: 'no answer from the engine' }));
  });
  return {
    id: template.id,
    priority: template.priority,
    capabilities: { ...template.capabilities },
    ...(template.concurrency === undefined ? {} : { concurrency: template.concurrency }),
    fetchPage(req, signal) {
      signal.throwIfAborted();
      const id = ++next;
      return new Promise<PageSnapshot>((resolve, reject) => {
        const onAbort = () => {
          if (!pending.delete(id)) return;
          channel.send({ type: 'engine.abort', id });
          reject(signal.reason);
        };
        pending.set(id, {
          resolve: (snapshot) => {
            signal.removeEventListener('abort', onAbort);
            resolve(snapshot);
          },
          reject: (err) => {
            signal.removeEventListener('abort', onAbort);
            reject(err);
          },
        });
        signal.addEventListener('abort', onAbort, { once: true });
        channel.send({ type: 'engine.fetch', id, engine: template.id, req });
      });
    },
  };
}

/** The main-thread side for one thread: runs its requests on `registry`'s engines. */
export interface EngineServer {
  handle(message: EngineRequestMessage): void;
  /** Stops every page still running for this thread (it exited). */
  abortAll(): void;
}

/**
 * @example
 * const server = serveEngine(container.engines, (reply) => worker.postMessage(reply));
 * worker.on('message', (m) => isEngineRequest(m) && server.handle(m));
 */
export function serveEngine(registry: EngineRegistry, reply: (message: EngineReplyMessage) => void): EngineServer {
  const running = new Map<number, AbortController>();
  return {
    handle(message) {
      if (message.type === 'engine.abort') {
        running.get(message.id)?.abort(new Error('the requesting thread stopped waiting'));
        running.delete(message.id);
        return;
      }
      const controller = new AbortController();
      running.set(message.id, controller);
      const engine = registry.get(message.engine);
      const req = message.req.prefetched
        ? { ...message.req, prefetched: reviveSnapshot(message.req.prefetched) }
        : message.req;
      const work = engine
        ? engine.fetchPage(req, controller.signal)
        : Promise.reject(new EngineFallbackError(`engine ${message.engine} is not running in this process`));
      work.then(
        (snapshot) => {
          if (running.delete(message.id)) reply({ type: 'engine.reply', id: message.id, snapshot });
        },
        (err: unknown) => {
          if (running.delete(message.id)) reply({ type: 'engine.reply', id: message.id, error: serializeError(err) });
        },
      );
    },
    abortAll() {
      for (const controller of running.values()) controller.abort(new Error('the requesting thread exited'));
      running.clear();
    },
  };
}

export function serializeError(err: unknown): SerializedEngineError {
  if (err instanceof AppError) return { name: 'AppError', kind: err.kind, code: err.code, detail: err.detail };
  if (err instanceof EngineFallbackError) return { name: 'EngineFallbackError', reason: err.reason };
  return { name: 'Error', message: err instanceof Error ? err.message : String(err) };
}

function deserializeError(err: SerializedEngineError): Error {
  if (err.name === 'AppError') return new AppError(err.kind, err.code, err.detail);
  if (err.name === 'EngineFallbackError') return new EngineFallbackError(err.reason);
  return new Error(err.message);
}

/** Buffers arrive as plain Uint8Arrays: make them Buffers again (no copy). */
function reviveSnapshot(snapshot: PageSnapshot): PageSnapshot {
  const buffer = (value: Uint8Array): Buffer =>
    Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  const out: PageSnapshot = { ...snapshot, body: buffer(snapshot.body) };
  if (snapshot.screenshot) out.screenshot = buffer(snapshot.screenshot);
  if (snapshot.pdf) out.pdf = buffer(snapshot.pdf);
  return out;
}
