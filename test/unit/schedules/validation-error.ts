import { expect } from 'vitest';
import { AppError } from '../../../src/errors.js';

/** The 400 `validation_error` that `run` throws; fails the test when it throws nothing else. */
export function validationError(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    return checked(err);
  }
  throw new Error('expected a validation error');
}

/** The 400 `validation_error` that `promise` rejects with. */
export async function rejectedValidation(promise: Promise<unknown>): Promise<AppError> {
  const err = await promise.then(
    () => new Error('expected a validation error'),
    (e: unknown) => e,
  );
  return checked(err);
}

function checked(err: unknown): AppError {
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).status).toBe(400);
  expect((err as AppError).code).toBe('validation_error');
  return err as AppError;
}
