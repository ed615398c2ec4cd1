import type { IncomingMessage } from 'node:http';

/**
 * How much of an oversized body the server reads and throws away after answering 413: up to
 * this many times the body limit, for at most this long. Closing the socket while the client
 * is still sending makes its next write fail (EPIPE) and, with the reset, can lose the answer
 * it has not read yet; reading on until it is done lets every client read the 413.
 */
export const DISCARD_BOUND = { limitFactor: 4, ms: 30_000 } as const;

/**
 * A response whose body is sent at once but only ends (and so only closes the connection,
 * `Connection: close`) once the rest of the request body was read and thrown away, or the
 * bound was reached (then the socket is destroyed). Without a Node request (in-process
 * `app.request`), or with the body already read, it is a plain response.
 */
export function answerWhileDiscarding(
  incoming: IncomingMessage | undefined,
  limit: number,
  init: { status: number; headers: Record<string, string>; body: string },
): Response {
  const headers = { ...init.headers, connection: 'close' };
  if (!incoming || incoming.readableEnded || incoming.destroyed) {
    return new Response(init.body, { status: init.status, headers });
  }
  const bytes = new TextEncoder().encode(init.body);
  const discarded = discardBody(incoming, limit * DISCARD_BOUND.limitFactor, DISCARD_BOUND.ms);
  let cancelled = false; // the connection went first: nothing left to end
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      void discarded.then(() => cancelled || controller.close());
    },
    cancel() {
      cancelled = true;
    },
  });
  return new Response(body, {
    status: init.status,
    headers: { ...headers, 'content-length': String(bytes.byteLength) },
  });
}

/** Reads and drops the rest of the body; resolves when it ended, the client left, or the bound hit. */
function discardBody(incoming: IncomingMessage, maxBytes: number, maxMs: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = () => {
      clearTimeout(timer);
      incoming.off('data', onData).off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const stop = () => {
      done();
      incoming.socket?.destroy();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > maxBytes) stop();
    };
    const timer = setTimeout(stop, maxMs);
    timer.unref();
    incoming.on('data', onData).once('end', done).once('close', done).once('error', done);
    incoming.resume();
  });
}
