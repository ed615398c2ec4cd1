import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  raw: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Decides the status of each delivery (default 200). */
  respondWith(
    fn: (delivery: ReceivedWebhook, index: number) => number | { status: number; headers?: Record<string, string> },
  ): void;
  /** Resolves when `count` deliveries arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A webhook endpoint on 127.0.0.1 that records every POST. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let decide: Parameters<WebhookReceiver['respondWith']>[0] = () => 200;
  const waiters: { count: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const delivery: ReceivedWebhook = {
        headers: req.headers,
        raw,
        body: JSON.parse(raw || '{}') as Record<string, unknown>,
        at: Date.now(),
      };
      received.push(delivery);
      const answer = decide(delivery, received.length - 1);
      const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
      res.writeHead(status, headers).end('ok');
      for (const w of waiters.filter((w) => received.length >= w.count)) w.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    respondWith: (fn) => void (decide = fn),
    waitFor(count, timeoutMs = 20_000) {
      if (received.length >= count) return Promise.resolve(received.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length}/${count} webhooks in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(received.slice())) });
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
