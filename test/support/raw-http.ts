import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  response: string;
  /** The first socket error the client saw (EPIPE, ECONNRESET), if any. */
  error: NodeJS.ErrnoException | null;
  /** Body bytes the client handed to the socket without an error. */
  written: number;
}

/** The status, headers and body of a raw HTTP/1.1 response text. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine?.split(' ')[1]), headers, body: text.slice(end + 4) };
}

/**
 * Sends `head` then `bodyBytes` bytes of body (in `chunk`-sized writes, each framed as an HTTP
 * chunk when `chunked`) over a plain socket, honouring backpressure, and reads until the server
 * closes. `stopAfter` bytes: the client destroys its socket there (a client that gives up).
 */
export function rawExchange(
  port: number,
  head: string,
  options: { bodyBytes?: number; chunked?: boolean; chunk?: number; stopAfter?: number } = {},
): Promise<RawExchange> {
  const { bodyBytes = 0, chunked = false, chunk = 64 * 1024, stopAfter } = options;
  const piece = Buffer.alloc(chunk, 0x20);
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: NodeJS.ErrnoException | null = null;
    let written = 0;
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', (err) => (error ??= err));
    socket.on('close', () => resolve({ response: Buffer.concat(received).toString('latin1'), error, written }));
    const pump = () => {
      while (written < bodyBytes) {
        if (error || socket.destroyed) return;
        if (stopAfter !== undefined && written >= stopAfter) {
          socket.destroy();
          return;
        }
        const size = Math.min(chunk, bodyBytes - written);
        const data = piece.subarray(0, size);
        const framed = chunked
          ? Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), data, Buffer.from('\r\n')])
          : data;
        const more = socket.write(framed);
        written += size;
        if (!more) {
          socket.once('drain', pump);
          return;
        }
      }
      if (chunked && !error && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    socket.once('connect', () => {
      socket.write(head);
      pump();
    });
  });
}
