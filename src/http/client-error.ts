import type { Duplex } from 'node:stream';
import { AppError, ERROR_KINDS, toErrorEnvelope } from '../errors.js';
import type { Logger } from '../logger.js';

/** What Node's HTTP parser reports (llhttp codes such as HPE_INVALID_HEADER_TOKEN). */
type ParserError = Error & { code?: string; reason?: string };

/** The socket a request arrives on, with the response Node may have in flight on it. */
type ClientSocket = Duplex & { _httpMessage?: { headersSent: boolean } | null };

/**
 * The server's `clientError` listener: a request Node's parser refuses (a bare CR or LF, NUL,
 * too large headers, Content-Length with Transfer-Encoding, ...) never reaches the app, and
 * Node would answer a bare `400 Bad Request`. This answers the spec's envelope instead, then
 * closes the connection (the parser cannot find the next request in what follows).
 */
export function createClientErrorHandler(docsUrl: () => string, logger: Logger) {
  const answered = new WeakSet<ClientSocket>();
  return (err: ParserError, socket: ClientSocket): void => {
    // The parser reports its error again for the bytes that follow (the rest of a 200 KB
    // header). The answer is on its way: destroying the socket now, with those bytes unread,
    // makes the kernel reset the connection, and on Node 24 the reset reaches the client
    // before it has read the answer.
    if (answered.has(socket)) return;
    // Node's own rule: never write into a response already under way, nor to a gone client.
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const appError = fromParserError(err);
    const { envelope } = toErrorEnvelope(appError, { docsUrl: docsUrl() });
    const body = JSON.stringify(envelope);
    answered.add(socket);
    logger.debug({ code: err.code, reason: err.reason, status: envelope.status }, 'malformed request refused');
    socket.end(
      `HTTP/1.1 ${envelope.status} ${ERROR_KINDS[appError.kind].title}\r\n` +
        'Content-Type: application/problem+json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  };
}

function fromParserError(err: ParserError): AppError {
  const reason = err.reason ?? err.message;
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large', 'request_headers_too_large', 'the request headers are too large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large', 'payload_too_large', 'the chunk extensions of the body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('client_timeout', 'client_timeout', 'the request was not received in time');
    default:
      return new AppError('validation', 'validation_error', `malformed HTTP request: ${reason}`);
  }
}
