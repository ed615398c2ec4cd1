import { AppError } from '../../../errors.js';

/**
 * The 400 every refusal of this module throws: `validation_error`, a detail that starts with
 * the request field (`cron_expression: day-of-week: 8 is out of range 1-7`) and the field in
 * `metadata.field`, like the zod-based validation of the rest of the API.
 */
export function invalidField(field: string, problem: string): AppError {
  return new AppError('validation', 'validation_error', `${field}: ${problem}`, { metadata: { field } });
}
