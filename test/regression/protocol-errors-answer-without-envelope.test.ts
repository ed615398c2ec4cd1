import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { parseRawResponse, rawExchange } from '../support/raw-http.js';

// Broke: requests Node's HTTP parser refuses never reached the app; Node answered a bare
// `400 Bad Request` / `431` with no body. Every error leaves in the spec's envelope.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const ok = (extra = '') => `GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}`;
const manyHeaders = Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join('');

it.each([
  ['a bare CR in the request line', 'GET /v1/me\rX HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
  ['a bare LF inside a header value', ok('X-A: a\nb: c\r\n\r\n'), 400],
  ['a NUL in the request line', 'GET /v1/\0me HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400],
  ['a NUL in a header', ok('X-A: a\0b\r\n\r\n'), 400],
  ['a 200 KB header', ok(`X-Big: ${'a'.repeat(200 * 1024)}\r\n\r\n`), 431],
  ['3,000 headers', ok(`${manyHeaders}\r\n`), 431],
  [
    'both Content-Length and Transfer-Encoding',
    'POST /v1/api-keys HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
  ],
  ['garbage instead of a request line', 'HELLO\r\n\r\n', 400],
])('answers %s with the envelope and closes', async (_name, request, status) => {
  const { response, error } = await rawExchange(app.server.port, request);
  expect(error).toBeNull();
  const { status: got, headers, body } = parseRawResponse(response);
  expect(got).toBe(status);
  expect(headers['content-type']).toBe('application/problem+json');
  expect(headers.connection).toBe('close');
  const envelope = JSON.parse(body) as Record<string, unknown>;
  expect(envelope).toMatchObject({
    object: 'error',
    status,
    code: status === 431 ? 'request_headers_too_large' : 'validation_error',
    type: `${app.url}/docs/api-reference/errors/${status === 431 ? 'request_header_fields_too_large' : 'bad_request'}`,
    metadata: {},
  });
  expect(envelope.id).toMatch(/^error_[0-9a-z]{20}$/);
  expect(typeof envelope.detail).toBe('string');
  expect(typeof envelope.created).toBe('number');
});

it('documents the new error type', async () => {
  const res = await fetch(`${app.url}/docs/api-reference/errors/request_header_fields_too_large`);
  expect(res.status).toBe(200);
});

it('answers a request that was not received in time with 408 in the envelope', async () => {
  // Node reports it after its requestTimeout (minutes): the listener is called directly here.
  const { createClientErrorHandler } = await import('../../src/http/client-error.js');
  const socket = new PassThrough();
  const written: Buffer[] = [];
  socket.on('data', (d: Buffer) => written.push(d));
  const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
  createClientErrorHandler(() => 'https://docs.example', app.container.logger)(timeout, socket);
  await new Promise((r) => socket.once('finish', r));
  const { status, headers, body } = parseRawResponse(Buffer.concat(written).toString('latin1'));
  expect(status).toBe(408);
  expect(headers.connection).toBe('close');
  expect(JSON.parse(body)).toMatchObject({
    status: 408,
    code: 'client_timeout',
    type: 'https://docs.example/api-reference/errors/request_timeout',
  });
});
