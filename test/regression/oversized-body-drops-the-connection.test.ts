import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { captureLogs } from '../support/log-capture.js';
import { parseRawResponse, rawExchange } from '../support/raw-http.js';

// Broke: the 413 was written and the socket closed while the client was still sending; the
// client's next write met a reset (EPIPE) and, depending on timing, it never read the answer.
// And a client that gave up mid-body was logged as a 500.
const LIMIT = 10 * 1024 * 1024;
let app: TestApp;
const logs = captureLogs();
beforeAll(async () => {
  app = await startTestApp({ logger: logs.logger, config: { server: { bodyLimitBytes: LIMIT } } });
});
afterAll(() => app?.close());

const head = (key: string, framing: string) =>
  `POST /v1/batches HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
  `Content-Type: application/json\r\n${framing}\r\n\r\n`;

function expect413(response: string) {
  const { status, headers, body } = parseRawResponse(response);
  expect(status).toBe(413);
  expect(headers['content-type']).toBe('application/problem+json');
  expect(headers.connection).toBe('close');
  const envelope = JSON.parse(body.slice(0, Number(headers['content-length']))) as Record<string, unknown>;
  expect(envelope).toMatchObject({ object: 'error', status: 413, code: 'payload_too_large' });
}

describe('a body over the limit', () => {
  it('with Content-Length: the client sends it all and reads the 413 envelope', async () => {
    const size = 20 * 1024 * 1024;
    const result = await rawExchange(app.server.port, head(app.key, `Content-Length: ${size}`), { bodyBytes: size });
    expect(result.error).toBeNull();
    expect(result.written).toBe(size);
    expect413(result.response);
  });

  it('chunked: the client sends it all and reads the 413 envelope', async () => {
    const size = 20 * 1024 * 1024;
    const result = await rawExchange(app.server.port, head(app.key, 'Transfer-Encoding: chunked'), {
      bodyBytes: size,
      chunked: true,
    });
    expect(result.error).toBeNull();
    expect(result.written).toBe(size);
    expect413(result.response);
  });

  it('is read and discarded only up to a bound, then the connection is closed', async () => {
    const size = 200 * 1024 * 1024;
    const result = await rawExchange(app.server.port, head(app.key, `Content-Length: ${size}`), { bodyBytes: size });
    expect(result.error).not.toBeNull();
    expect(result.written).toBeLessThan(size);
  });
});

describe('a client that stops sending mid-body', () => {
  it('is logged as a client abort, not as a server error', async () => {
    const size = 1024 * 1024;
    const from = logs.lines().length;
    await rawExchange(app.server.port, head(app.key, `Content-Length: ${size}`), {
      bodyBytes: size,
      stopAfter: 128 * 1024,
    });
    const aborted = await waitFor(() =>
      logs
        .lines()
        .slice(from)
        .find((l) => l.msg === 'client aborted the request'),
    );
    expect(aborted).toMatchObject({ level: 30, method: 'POST', path: '/v1/batches' });
    expect(
      logs
        .lines()
        .slice(from)
        .filter((l) => (l.level as number) >= 50),
    ).toEqual([]);
  });
});

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 20_000): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}
