import { describe, expect, it } from 'vitest';
import { EngineFallbackError } from '../../../src/engine/errors.js';
import { createEngineRegistry } from '../../../src/engine/registry.js';
import { NO_CAPABILITIES, type EngineCapabilities, type ScrapeEngine } from '../../../src/engine/types.js';
import { AppError, errors } from '../../../src/errors.js';

/** A tiny engine plugin: answers, falls back or fails as told, and records what it was asked. */
function engine(
  id: string,
  priority: number,
  behaviour: 'ok' | 'fallback' | 'blocked' | 'bug',
  capabilities: Partial<EngineCapabilities> = {},
): ScrapeEngine & { calls: string[] } {
  const calls: string[] = [];
  return {
    id,
    priority,
    capabilities: { ...NO_CAPABILITIES, ...capabilities },
    calls,
    async fetchPage(req) {
      calls.push(req.url);
      if (behaviour === 'fallback') throw new EngineFallbackError(`${id} cannot render this`);
      if (behaviour === 'blocked') throw errors.blocked('target refused');
      if (behaviour === 'bug') throw new TypeError('undefined is not a function');
      const body = Buffer.from(`<p>${id}</p>`);
      return {
        url: req.url,
        finalUrl: req.url,
        statusCode: 200,
        headers: {},
        contentType: 'text/html',
        body,
        text: body.toString(),
        engine: id,
        redirects: [],
      };
    },
  };
}

const req = { url: 'https://example.com/', timeoutMs: 1000 };
const signal = new AbortController().signal;

describe('engine registry', () => {
  it('refuses duplicate ids', () => {
    const registry = createEngineRegistry([engine('http', 1, 'ok')]);
    expect(() => registry.register(engine('http', 5, 'ok'))).toThrow(/"http" is already registered/);
  });

  it('lists capable candidates by priority, ties in registration order', () => {
    const registry = createEngineRegistry([
      engine('a', 1, 'ok', { javascript: true }),
      engine('b', 10, 'ok'),
      engine('c', 5, 'ok', { javascript: true, screenshot: true }),
      engine('d', 5, 'ok', { javascript: true }),
    ]);
    expect(registry.list().map((e) => e.id)).toEqual(['b', 'c', 'd', 'a']);
    expect(registry.candidates([]).map((e) => e.id)).toEqual(['b', 'c', 'd', 'a']);
    expect(registry.candidates(['javascript']).map((e) => e.id)).toEqual(['c', 'd', 'a']);
    expect(registry.candidates(['javascript', 'screenshot']).map((e) => e.id)).toEqual(['c']);
    expect(registry.candidates(['actions'])).toEqual([]);
  });

  it('falls back to the next capable engine and says so in warnings', async () => {
    const first = engine('first', 10, 'fallback');
    const second = engine('second', 5, 'ok');
    const { snapshot, attempts } = await createEngineRegistry([first, second]).fetch(req, { signal });
    expect(snapshot.engine).toBe('second');
    expect(attempts).toEqual([{ engine: 'first', reason: 'first cannot render this' }]);
    expect(snapshot.warnings).toEqual(['engine first fell back: first cannot render this']);
    expect(first.calls).toEqual([req.url]);
  });

  it('stops at an AppError without trying other engines', async () => {
    const second = engine('second', 5, 'ok');
    const registry = createEngineRegistry([engine('first', 10, 'blocked'), second]);
    await expect(registry.fetch(req, { signal })).rejects.toMatchObject({ status: 403, code: 'blacklisted_domain' });
    expect(second.calls).toEqual([]);
  });

  it('stops at an unexpected error too (it must surface as a 500, not be hidden by a fallback)', async () => {
    const second = engine('second', 5, 'ok');
    const registry = createEngineRegistry([engine('first', 10, 'bug'), second]);
    await expect(registry.fetch(req, { signal })).rejects.toBeInstanceOf(TypeError);
    expect(second.calls).toEqual([]);
  });

  it('answers 502 listing every reason when all engines fell back', async () => {
    const registry = createEngineRegistry([engine('a', 2, 'fallback'), engine('b', 1, 'fallback')]);
    const err = await registry.fetch(req, { signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 502, code: 'upstream_error' });
    expect((err as AppError).detail).toBe(
      'every engine failed to fetch https://example.com/ (a: a cannot render this; b: b cannot render this)',
    );
  });

  it('only tries engines having the needed capabilities', async () => {
    const plain = engine('plain', 10, 'ok');
    const browser = engine('browser', 1, 'ok', { javascript: true, screenshot: true });
    const { snapshot } = await createEngineRegistry([plain, browser]).fetch(req, { needs: ['screenshot'], signal });
    expect(snapshot.engine).toBe('browser');
    expect(plain.calls).toEqual([]);
  });

  it('answers 400 when no enabled engine has the needed capabilities', async () => {
    const registry = createEngineRegistry([engine('plain', 10, 'ok')]);
    await expect(registry.fetch(req, { needs: ['screenshot'], signal })).rejects.toMatchObject({
      status: 400,
      detail: 'no enabled engine can do what this request needs (screenshot)',
    });
  });

  it('uses a forced engine only, and validates it', async () => {
    const plain = engine('plain', 10, 'ok');
    const browser = engine('browser', 1, 'ok', { javascript: true });
    const registry = createEngineRegistry([plain, browser]);
    const { snapshot } = await registry.fetch(req, { engine: 'browser', signal });
    expect(snapshot.engine).toBe('browser');
    expect(plain.calls).toEqual([]);
    await expect(registry.fetch(req, { engine: 'nope', signal })).rejects.toMatchObject({
      status: 400,
      code: 'validation_error',
      detail: 'engine: unknown engine "nope" (enabled: plain, browser)',
    });
    await expect(registry.fetch(req, { engine: 'plain', needs: ['javascript'], signal })).rejects.toMatchObject({
      status: 400,
      detail: 'engine: plain cannot do what this request needs (javascript)',
    });
  });

  it('does not start another engine once the caller aborted', async () => {
    const controller = new AbortController();
    const first: ScrapeEngine = {
      ...engine('first', 10, 'ok'),
      async fetchPage() {
        controller.abort(new Error('client went away'));
        throw new EngineFallbackError('gave up');
      },
    };
    const second = engine('second', 1, 'ok');
    await expect(createEngineRegistry([first, second]).fetch(req, { signal: controller.signal })).rejects.toThrow(
      'client went away',
    );
    expect(second.calls).toEqual([]);
  });

  it('starts engines and stops all of them even when one fails to stop', async () => {
    const events: string[] = [];
    const a: ScrapeEngine = {
      ...engine('a', 2, 'ok'),
      start: async () => void events.push('start a'),
      stop: async () => {
        events.push('stop a');
        throw new Error('a would not stop');
      },
    };
    const b: ScrapeEngine = { ...engine('b', 1, 'ok'), stop: async () => void events.push('stop b') };
    const registry = createEngineRegistry([a, b]);
    await registry.start();
    await expect(registry.stop()).rejects.toThrow('a would not stop');
    expect(events).toEqual(['start a', 'stop a', 'stop b']);
  });
});
