import { AppError } from '../../errors.js';

/** A 400 `validation_error` for one input field; `metadata.field` names it for clients. */
export function fieldError(field: string, message: string): AppError {
  return new AppError('validation', 'validation_error', `${field}: ${message}`, { metadata: { field } });
}
