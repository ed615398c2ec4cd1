import { describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/domain/auth/actor.js';
import type { CredentialEnd, LiveConnections } from '../../../src/domain/auth/live-connections.js';
import { AppError } from '../../../src/errors.js';
import { eventStreamResponse, type StreamEvent } from '../../../src/module/event-stream.js';

const actor: Actor = { teamId: 'team_1', via: 'api_key', keyId: 'key_1' };

function fakeLive() {
  const ends: ((why: CredentialEnd) => void)[] = [];
  let forgotten = 0;
  const live = {
    add: (_actor: Actor, end: (why: CredentialEnd) => void) => {
      ends.push(end);
      return () => void forgotten++;
    },
  } as unknown as LiveConnections;
  return { live, end: (why: CredentialEnd) => ends.forEach((e) => e(why)), forgotten: () => forgotten };
}

async function* from(events: StreamEvent[], onReturn?: () => void) {
  try {
    for (const e of events) yield e;
  } finally {
    onReturn?.();
  }
}

describe('eventStreamResponse', () => {
  it('writes each event as event/id/data lines and ends with the events', async () => {
    const { live, forgotten } = fakeLive();
    const res = eventStreamResponse(
      from([
        { event: 'phase', data: { phase: 'planning' }, id: '1' },
        { event: 'complete', data: { ok: true }, id: '2' },
      ]),
      { signal: new AbortController().signal, actor, live },
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    expect(text).toBe(
      ': stream open\n\nid: 1\nevent: phase\ndata: {"phase":"planning"}\n\nid: 2\nevent: complete\ndata: {"ok":true}\n\n',
    );
    expect(forgotten()).toBe(1);
  });

  it('ends with an error event when the key is revoked, and returns the iterator', async () => {
    const { live, end } = fakeLive();
    let returned = false;
    async function* forever() {
      try {
        yield { event: 'phase', data: {} };
        await new Promise(() => undefined);
      } finally {
        returned = true;
      }
    }
    const res = eventStreamResponse(forever(), { signal: new AbortController().signal, actor, live });
    const reader = res.body!.getReader();
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    chunks.push(decoder.decode((await reader.read()).value));
    chunks.push(decoder.decode((await reader.read()).value));
    end('revoked');
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(decoder.decode(r.value));
    expect(chunks.join('')).toContain('event: error\ndata: {"error":"API key revoked"}');
    await new Promise((r) => setTimeout(r, 10));
    expect(returned).toBe(true);
  });

  it('sends an AppError as an error event without leaking other errors', async () => {
    const { live } = fakeLive();
    async function* failing(err: Error) {
      yield { event: 'phase', data: {} };
      throw err;
    }
    const known = await eventStreamResponse(failing(new AppError('upstream', 'model_error', 'the model failed')), {
      signal: new AbortController().signal,
      actor,
      live,
    }).text();
    expect(known).toContain('data: {"error":"the model failed"}');
    const unknown = await eventStreamResponse(failing(new Error('secret path /etc/x')), {
      signal: new AbortController().signal,
      actor,
      live,
    }).text();
    expect(unknown).toContain('the stream failed unexpectedly');
    expect(unknown).not.toContain('/etc/x');
  });

  it('stops and returns the iterator when the client goes away', async () => {
    const { live } = fakeLive();
    const client = new AbortController();
    let returned = false;
    async function* forever() {
      try {
        for (;;) {
          yield { event: 'tick', data: {} };
          await new Promise((r) => setTimeout(r, 5));
        }
      } finally {
        returned = true;
      }
    }
    const res = eventStreamResponse(forever(), { signal: client.signal, actor, live });
    const reader = res.body!.getReader();
    await reader.read();
    await reader.read();
    client.abort();
    for (let r = await reader.read(); !r.done; r = await reader.read());
    await new Promise((r) => setTimeout(r, 20));
    expect(returned).toBe(true);
  });
});
