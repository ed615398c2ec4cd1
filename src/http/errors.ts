import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError, toErrorEnvelope } from '../errors.js';
import { ClientAbortError } from './body.js';
import type { AppEnv } from './env.js';
import { answerWhileDiscarding } from './oversized-body.js';

export interface ErrorHandlerOptions {
  docsUrl: () => string;
  /** The body limit: an oversized body is read and discarded up to a multiple of it (oversized-body.ts). */
  bodyLimitBytes: number;
}

/**
 * The one place REST maps errors: AppErrors become the spec envelope with their status;
 * anything else is logged with the request id and answered as a masked 500.
 */
export function createErrorHandler(options: ErrorHandlerOptions) {
  return (err: Error, c: Context<AppEnv>): Response => {
    if (err instanceof ClientAbortError) return clientAborted(c);
    const appError = err instanceof HTTPException ? fromHttpException(err) : err;
    const { envelope, expected } = toErrorEnvelope(appError, {
      docsUrl: options.docsUrl(),
      requestId: c.get('requestId'),
    });
    const log = c.get('log');
    if (!expected) log?.error({ err, error_id: envelope.id }, 'unexpected error');
    else log?.debug({ code: envelope.code, detail: envelope.detail }, 'request failed');
    const headers: Record<string, string> = { 'content-type': 'application/problem+json' };
    if (appError instanceof AppError) Object.assign(headers, appError.headers);
    const init = { status: envelope.status, headers, body: JSON.stringify(envelope) };
    // The connection cannot be reused after an unread body; the client still reads the 413.
    if (envelope.status === 413) return answerWhileDiscarding(c.env?.incoming, options.bodyLimitBytes, init);
    return new Response(init.body, init);
  };
}

/**
 * Nobody is left to read an answer. Logged as what it is, not as a failure of the service;
 * the status (nginx's 499 "client closed request") only shows in the request log line.
 */
function clientAborted(c: Context<AppEnv>): Response {
  c.get('log')?.info({ method: c.req.method, path: new URL(c.req.url).pathname }, 'client aborted the request');
  return new Response(null, { status: 499 });
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
