import type { Actor } from '../domain/auth/actor.js';
import { AppError } from '../errors.js';
import type { LiveConnections } from '../domain/auth/live-connections.js';

/** One server-sent event: its name (`event:`), its JSON data, and an optional `id:`. */
export interface StreamEvent {
  event: string;
  data: unknown;
  id?: string;
}

export interface EventStreamOptions {
  /** Aborts when the client goes away (the route handler's `signal`). */
  signal: AbortSignal;
  /** The caller: the stream ends when its key is revoked or its token expires. */
  actor: Actor;
  live: LiveConnections;
  /** A comment line this often keeps proxies from closing an idle stream (default 15 s). */
  heartbeatMs?: number;
  /** What to send when the caller's credential ends (default: an `error` event). */
  onCredentialEnd?: (why: 'revoked' | 'expired') => StreamEvent;
  /** HTTP status of the response (default 200). */
  status?: number;
}

const encoder = new TextEncoder();

/** `event:`/`id:`/`data:` lines of one event (data is JSON, one line). */
export function formatEvent(event: StreamEvent): string {
  const id = event.id !== undefined ? `id: ${event.id.replace(/[\r\n]/g, '')}\n` : '';
  return `${id}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/**
 * A `text/event-stream` response fed by `events`: each event as `event:`/`data:` (and `id:`)
 * lines, a heartbeat comment every `heartbeatMs`, ended when the events end, the client goes
 * away, or the caller's credential ends (revoked key: an `error` event, then the end). The
 * iterator is returned (its `finally` runs) whichever way the stream ends.
 *
 * @example
 * return eventStreamResponse(progress(monitor), { signal, actor, live: ctx.liveConnections() });
 */
export function eventStreamResponse(events: AsyncIterable<StreamEvent>, options: EventStreamOptions): Response {
  const iterator = events[Symbol.asyncIterator]();
  const stop = new AbortController();
  let heartbeat: NodeJS.Timeout | undefined;
  let forget: (() => void) | undefined;
  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, last?: StreamEvent) => {
    if (stop.signal.aborted) return;
    stop.abort();
    clearInterval(heartbeat);
    forget?.();
    options.signal.removeEventListener('abort', onClientGone);
    void iterator.return?.();
    try {
      if (last) controller.enqueue(encoder.encode(formatEvent(last)));
      controller.close();
    } catch {
      // the client is gone already
    }
  };
  let onClientGone = () => undefined as void;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      onClientGone = () => finish(controller);
      options.signal.addEventListener('abort', onClientGone, { once: true });
      forget = options.live.add(options.actor, (why) =>
        finish(
          controller,
          options.onCredentialEnd?.(why) ?? {
            event: 'error',
            data: { error: why === 'revoked' ? 'API key revoked' : 'access token expired' },
          },
        ),
      );
      heartbeat = setInterval(() => {
        if (!stop.signal.aborted) controller.enqueue(encoder.encode(': heartbeat\n\n'));
      }, options.heartbeatMs ?? 15_000);
      heartbeat.unref();
      controller.enqueue(encoder.encode(': stream open\n\n'));
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (stop.signal.aborted) return;
        if (next.done) finish(controller);
        else controller.enqueue(encoder.encode(formatEvent(next.value)));
      } catch (err) {
        const error = err instanceof AppError ? err.detail : 'the stream failed unexpectedly';
        finish(controller, { event: 'error', data: { error } });
      }
    },
    cancel() {
      stop.abort();
      clearInterval(heartbeat);
      forget?.();
      void iterator.return?.();
    },
  });
  return new Response(body, {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    },
  });
}
