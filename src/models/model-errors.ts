import { AppError } from '../errors.js';

/**
 * The model failed the request: unreachable, refused it, kept failing, or its output never
 * matched the schema. 502, code `model_error`; `detail` says which, without the server's address.
 */
export function modelError(detail: string, cause?: unknown): AppError {
  return new AppError('upstream', 'model_error', detail, { cause });
}
