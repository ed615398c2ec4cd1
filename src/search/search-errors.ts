import { AppError } from '../errors.js';

/** The search provider cannot be reached or is failing: 503 `search_unavailable` (try again later). */
export function searchUnavailable(
  detail: string,
  options: { cause?: unknown; retryAfter?: string | null } = {},
): AppError {
  const headers: Record<string, string> = options.retryAfter ? { 'Retry-After': options.retryAfter } : {};
  return new AppError('unavailable', 'search_unavailable', detail, { cause: options.cause, headers });
}

/** The search provider answered something unusable (misconfigured, malformed): 502 `search_error`. */
export function searchError(detail: string, cause?: unknown): AppError {
  return new AppError('upstream', 'search_error', detail, { cause });
}
