import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError, toErrorEnvelope } from '../errors.js';
import type { AppEnv } from './env.js';

/**
 * The one place REST maps errors: AppErrors become the spec envelope with their status;
 * anything else is logged with the request id and answered as a masked 500.
 */
export function createErrorHandler(docsUrl: () => string) {
  return (err: Error, c: Context<AppEnv>): Response => {
    const appError = err instanceof HTTPException ? fromHttpException(err) : err;
    const { envelope, expected } = toErrorEnvelope(appError, { docsUrl: docsUrl(), requestId: c.get('requestId') });
    const log = c.get('log');
    if (!expected) log?.error({ err, error_id: envelope.id }, 'unexpected error');
    else log?.debug({ code: envelope.code, detail: envelope.detail }, 'request failed');
    const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
    if (appError instanceof AppError) Object.assign(headers, appError.headers);
    // The rest of an oversized body is never read: the connection cannot be reused.
    if (envelope.status === 413) headers.connection = 'close';
    return new Response(JSON.stringify(envelope), { status: envelope.status, headers });
  };
}

/** Hono throws HTTPException for its own failures (body limit, malformed requests). */
function fromHttpException(err: HTTPException): AppError | Error {
  if (err.status === 413) {
    return new AppError('payload_too_large', 'payload_too_large', 'request body is larger than the limit');
  }
  if (err.status === 400) return new AppError('validation', 'validation_error', err.message || 'malformed request');
  return err;
}

export function notFoundHandler(c: Context<AppEnv>): never {
  throw new AppError('not_found', 'route_not_found', `no route for ${c.req.method} ${new URL(c.req.url).pathname}`);
}
