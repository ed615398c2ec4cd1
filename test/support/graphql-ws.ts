import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** A graphql-ws client against the test server, authenticating through connectionParams. */
export function wsClient(httpUrl: string, key: string | null): Client {
  return createClient({
    url: `${httpUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: key ? { authorization: `Bearer ${key}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

/** Collects the first `count` events of a subscription (rejects on error or timeout). */
export function collect<T>(
  client: Client,
  query: string,
  count: number,
  timeoutMs = 15_000,
): { ready: Promise<void>; done: Promise<T[]> } {
  const events: T[] = [];
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  const done = new Promise<T[]>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`only ${events.length}/${count} events in ${timeoutMs} ms`)),
      timeoutMs,
    );
    const stop = client.subscribe<T>(
      { query },
      {
        next: (value) => {
          if (value.errors) {
            clearTimeout(timer);
            reject(new Error(JSON.stringify(value.errors)));
            return;
          }
          events.push(value.data as T);
          if (events.length === count) {
            clearTimeout(timer);
            stop();
            resolve(events);
          }
        },
        error: (err) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(JSON.stringify(err)));
        },
        complete: () => undefined,
      },
    );
    client.on('connected', () => setTimeout(markReady, 100));
  });
  return { ready, done };
}
