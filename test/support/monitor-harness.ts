import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { FixtureHandler } from './fixture-server.js';

/** One server-sent event as read by a test. */
export interface SseEvent {
  event: string;
  id: string | null;
  data: unknown;
}

/** Reads a `text/event-stream` response until `until` says stop (or the stream ends). */
export async function readSse(
  res: Response,
  until: (event: SseEvent) => boolean,
  timeoutMs = 30_000,
): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const lines = block.split('\n').filter((l) => !l.startsWith(':'));
        if (lines.length === 0) continue;
        const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
        const event = {
          event: field('event') ?? 'message',
          id: field('id'),
          data: JSON.parse(field('data') ?? 'null'),
        };
        events.push(event);
        if (until(event)) return events;
      }
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return events;
}

/**
 * A page whose text the test edits, served with an ETag and Last-Modified and answering
 * conditional requests with 304, as a well-behaved site does. `served` counts 200s and 304s.
 */
export function editablePage(initial: string) {
  const page = { body: initial, modified: new Date('2026-01-01T00:00:00Z'), served: { full: 0, notModified: 0 } };
  const etag = () => `"${createHash('sha256').update(page.body).digest('hex').slice(0, 16)}"`;
  const handler: FixtureHandler = (req, res) => {
    if (req.headers['if-none-match'] === etag()) {
      page.served.notModified++;
      res.writeHead(304, { etag: etag() });
      res.end();
      return;
    }
    page.served.full++;
    const body = Buffer.from(page.body);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(body.length),
      etag: etag(),
      'last-modified': page.modified.toUTCString(),
    });
    res.end(body);
  };
  return {
    handler,
    page,
    edit(body: string) {
      page.body = body;
      page.modified = new Date(page.modified.getTime() + 60_000);
    },
  };
}

export interface SmtpInbox {
  port: number;
  url: string;
  mails: ParsedMail[];
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (no TLS, any credentials) that keeps every message, parsed. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(count, timeoutMs = 20_000) {
      const started = Date.now();
      while (mails.length < count) {
        if (Date.now() - started > timeoutMs) throw new Error(`only ${mails.length}/${count} mails in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return mails.slice();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Polls `read` until `done` holds (or throws after `timeoutMs`). */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs)
      throw new Error(`timed out; last value: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
