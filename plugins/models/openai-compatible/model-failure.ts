import {
  APICallError,
  EmptyResponseBodyError,
  InvalidResponseDataError,
  JSONParseError,
  TypeValidationError,
} from '@ai-sdk/provider';
import { findInCauses } from '../../../src/engine/network-errors.js';
import { AppError } from '../../../src/errors.js';
import { modelError } from '../../../src/models/model-errors.js';
import { retryAfterMs, type RetryVerdict } from '../../../src/models/retry.js';

/** A failed call to the model server, understood: whether to retry, and what to tell the client. */
export interface ModelFailure extends RetryVerdict {
  error: AppError;
}

/**
 * Explains an error of the AI SDK provider (or of the guarded fetch under it). Returns null for
 * errors that are not the server's or the network's doing (bugs stay 500s).
 *
 * Retried: 408, 409, 429 and 5xx answers and connections that failed or broke, the AI SDK's
 * own `isRetryable` judgement. Never retried: a refusal by the outbound guard (in the cause
 * chain), other 4xx answers, malformed responses.
 */
export function explainFailure(err: unknown, model: string): ModelFailure | null {
  const refusal = findInCauses(err, (e): e is AppError => e instanceof AppError && e.kind === 'forbidden');
  if (refusal) {
    const detail = `the connection to the model server was refused by the outbound policy: ${refusal.detail}`;
    return { retry: false, error: modelError(detail, err) };
  }
  if (APICallError.isInstance(err)) return explainApiCall(err, model);
  // A plain fetch failure (`TypeError: fetch failed`), from calls made without the AI SDK.
  if (err instanceof TypeError && err.cause instanceof Error) {
    return { retry: true, error: modelError(`could not reach the model server (${causeCode(err)})`, err) };
  }
  if (
    InvalidResponseDataError.isInstance(err) ||
    TypeValidationError.isInstance(err) ||
    JSONParseError.isInstance(err) ||
    EmptyResponseBodyError.isInstance(err)
  ) {
    return {
      retry: false,
      error: modelError(`the model server sent a malformed response: ${brief(err.message)}`, err),
    };
  }
  return null;
}

function explainApiCall(err: APICallError, model: string): ModelFailure {
  const status = err.statusCode;
  const message = brief(err.message);
  if (status === undefined) {
    return { retry: err.isRetryable, error: modelError(`could not reach the model server (${causeCode(err)})`, err) };
  }
  if (status >= 200 && status < 300) {
    return { retry: false, error: modelError(`the model server sent a malformed response: ${message}`, err) };
  }
  if (status === 429) {
    const afterMs = retryAfterMs(err.responseHeaders);
    return {
      retry: true,
      afterMs,
      error: modelError(`the model server is rate limiting requests (429): ${message}`, err),
    };
  }
  if (status === 408 || status === 409 || status >= 500) {
    return { retry: true, error: modelError(`the model server failed (${status}): ${message}`, err) };
  }
  if (status === 401 || status === 403) {
    return { retry: false, error: modelError(`the model server refused the API key (${status}): ${message}`, err) };
  }
  if (status === 404) {
    const detail = `the model server has no model ${JSON.stringify(model)} or no chat completions endpoint (404): ${message}`;
    return { retry: false, error: modelError(detail, err) };
  }
  return { retry: false, error: modelError(`the model server rejected the request (${status}): ${message}`, err) };
}

/** The error code of a network failure (`ECONNREFUSED`), else its message. */
function causeCode(err: Error): string {
  const coded = findInCauses(
    err,
    (e): e is Error & { code: string } => typeof (e as { code?: unknown }).code === 'string',
  );
  return coded ? coded.code : brief(err.message);
}

/** The first line of a message, at most 300 characters: server messages can be whole HTML pages. */
function brief(message: string): string {
  const line = (message.split('\n')[0] ?? '').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
