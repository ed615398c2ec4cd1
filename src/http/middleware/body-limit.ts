import type { MiddlewareHandler } from 'hono';
import { AppError } from '../../errors.js';
import type { AppEnv } from '../env.js';

export const payloadTooLarge = (limit: number) =>
  new AppError('payload_too_large', 'payload_too_large', `request body is larger than the limit of ${limit} bytes`);

/**
 * Refuses bodies over `maxBytes` with 413. A declared Content-Length is checked here; a chunked
 * body is counted as it is read (`readRawBody`). Unlike Hono's bodyLimit it never touches the
 * raw request of a bodiless GET, which keeps @hono/node-server's fast path.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > maxBytes) throw payloadTooLarge(maxBytes);
    c.set('bodyLimit', maxBytes);
    await next();
  };
}
