import type { MiddlewareHandler } from 'hono';
import { IdempotencyService } from '../../domain/idempotency/idempotency.service.js';
import type { Actor } from '../../domain/auth/actor.js';
import { readRawBody } from '../body.js';
import type { AppEnv } from '../env.js';

/** Response headers worth replaying with a stored response. */
const REPLAYED_HEADERS = ['content-type', 'location'];

/**
 * `Idempotency-Key` on every authenticated POST (decisions.md). Runs after authentication
 * (keys are per team) and around the route, so whatever the route answers is what a retry
 * with the same key and body gets back.
 */
export function idempotency(
  service: IdempotencyService,
  authenticate: (c: Parameters<MiddlewareHandler<AppEnv>>[0]) => Promise<Actor>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (c.req.method !== 'POST' || key === undefined) return next();
    IdempotencyService.validateKey(key);
    const actor = await authenticate(c);
    const url = new URL(c.req.url);
    const hash = IdempotencyService.requestHash('POST', url.pathname + url.search, await readRawBody(c));
    const claim = await service.claim(actor.teamId, key, hash);
    if (claim.kind === 'replay') {
      const { statusCode, body, headers } = claim.response;
      return new Response(body, { status: statusCode, headers: { ...headers, 'idempotent-replayed': 'true' } });
    }
    try {
      await next();
    } catch (err) {
      // The error handler has not run yet: release the key so the client can retry.
      await service.finish(actor.teamId, key, { statusCode: 500, body: '', headers: {} });
      throw err;
    }
    const res = c.res;
    if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
      // A stream cannot be replayed (nor buffered here): the key is released, as for a 5xx.
      await service.finish(actor.teamId, key, { statusCode: 500, body: '', headers: {} });
      return;
    }
    const body = await res.clone().text();
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = res.headers.get(name);
      if (value) headers[name] = value;
    }
    await service.finish(actor.teamId, key, { statusCode: res.status, body, headers });
  };
}
