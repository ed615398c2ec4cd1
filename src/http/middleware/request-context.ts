import type { MiddlewareHandler } from 'hono';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { AppEnv } from '../env.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (a sane incoming `X-Request-Id` is kept, so traces join up),
 * a child logger carrying it, and one log line when the response is done.
 */
export function requestContext(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : newId('req');
    const log = logger.child({ req_id: requestId });
    c.set('requestId', requestId);
    c.set('log', log);
    // Set before the handler runs: set after, Hono would rebuild the response (losing
    // @hono/node-server's fast path). Responses built by hand (errors, replays) get it below.
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    if (!c.res.headers.has('x-request-id')) c.res.headers.set('x-request-id', requestId);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const status = c.res.status;
    log[status >= 500 ? 'error' : 'info'](
      { method: c.req.method, path: new URL(c.req.url).pathname, status, ms },
      'request',
    );
  };
}
