import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineFallbackError } from '../../../src/engine/errors.js';
import { createEngineRegistry } from '../../../src/engine/registry.js';
import {
  createRemoteEngine,
  isEngineReply,
  isEngineRequest,
  serveEngine,
  type EngineChannel,
} from '../../../src/engine/remote-engine.js';
import type { PageRequest, PageSnapshot, ScrapeEngine } from '../../../src/engine/types.js';
import { AppError } from '../../../src/errors.js';

// The thread side and the main-thread side of a shared engine, over a real MessageChannel
// (structured clone, as between a job thread and its process).

const CAPS = { javascript: true, actions: true, screenshot: true, pdf: true, screen: true, proxy: true };
const ports: MessageChannel[] = [];

afterEach(() => {
  for (const channel of ports.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function connect(fetchPage: ScrapeEngine['fetchPage']): { remote: ScrapeEngine; seen: AbortSignal[] } {
  const seen: AbortSignal[] = [];
  const owner: ScrapeEngine = {
    id: 'browser',
    priority: 10,
    capabilities: CAPS,
    fetchPage: (req, signal) => {
      seen.push(signal);
      return fetchPage(req, signal);
    },
  };
  const pipe = new MessageChannel();
  ports.push(pipe);
  const server = serveEngine(createEngineRegistry([owner]), (reply) => pipe.port2.postMessage(reply));
  pipe.port2.on('message', (message) => isEngineRequest(message) && server.handle(message));
  const channel: EngineChannel = {
    send: (message) => pipe.port1.postMessage(message),
    onReply: (handler) => pipe.port1.on('message', (m) => isEngineReply(m) && handler(m)),
  };
  return { remote: createRemoteEngine(owner, channel), seen };
}

const snapshot = (req: PageRequest): PageSnapshot => ({
  url: req.url,
  finalUrl: req.url,
  statusCode: 200,
  headers: { 'content-type': 'text/html' },
  contentType: 'text/html',
  body: Buffer.from('<h1>hi</h1>'),
  text: '<h1>hi</h1>',
  screenshot: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  engine: 'browser',
  redirects: [],
});

describe('remote engine', () => {
  it('returns the owner’s snapshot with Buffers, and keeps id, priority and capabilities', async () => {
    const { remote } = connect(async (req) => snapshot(req));
    expect(remote).toMatchObject({ id: 'browser', priority: 10, capabilities: CAPS });
    const page = await remote.fetchPage({ url: 'http://a.example/', timeoutMs: 1000 }, new AbortController().signal);
    expect(Buffer.isBuffer(page.body)).toBe(true);
    expect(Buffer.isBuffer(page.screenshot)).toBe(true);
    expect(page.body.toString()).toBe('<h1>hi</h1>');
    expect([...page.screenshot!]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('hands a prefetched snapshot to the owner with its body as a Buffer', async () => {
    const { remote } = connect(async (req) => {
      expect(Buffer.isBuffer(req.prefetched?.body)).toBe(true);
      return snapshot(req);
    });
    const req: PageRequest = { url: 'http://a.example/', timeoutMs: 1000 };
    await remote.fetchPage({ ...req, prefetched: snapshot(req) }, new AbortController().signal);
  });

  it('keeps the error classes the registry and the API tell apart', async () => {
    const failing = (err: Error) => connect(async () => Promise.reject(err)).remote;
    const signal = new AbortController().signal;
    const req = { url: 'http://a.example/', timeoutMs: 1000 };
    const app = await failing(new AppError('validation', 'validation_error', 'actions[1]: no element'))
      .fetchPage(req, signal)
      .catch((e: unknown) => e);
    expect(app).toBeInstanceOf(AppError);
    expect(app).toMatchObject({ kind: 'validation', code: 'validation_error', detail: 'actions[1]: no element' });
    const fallback = await failing(new EngineFallbackError('the browser exited'))
      .fetchPage(req, signal)
      .catch((e: unknown) => e);
    expect(fallback).toBeInstanceOf(EngineFallbackError);
    expect(fallback).toMatchObject({ reason: 'the browser exited' });
    const other = await failing(new TypeError('boom'))
      .fetchPage(req, signal)
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Error);
    expect((other as Error).message).toBe('boom');
  });

  it('rejects at once with the caller’s reason on abort and stops the owner’s page', async () => {
    const { remote, seen } = connect(
      (_req, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    const controller = new AbortController();
    const page = remote.fetchPage({ url: 'http://a.example/', timeoutMs: 60_000 }, controller.signal);
    await new Promise((r) => setTimeout(r, 50));
    const reason = new AppError('timeout', 'request_timeout', 'budget ran out');
    controller.abort(reason);
    await expect(page).rejects.toBe(reason);
    await new Promise((r) => setTimeout(r, 50));
    expect(seen[0]?.aborted).toBe(true);
  });
});
