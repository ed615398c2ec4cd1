import { expect } from 'vitest';

/** The error `fn` throws, checked to be a `type`; fails the test when it throws nothing. */
export function thrownBy<T extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => T): T {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(type);
    return err as T;
  }
  throw new Error(`expected a ${type.name} to be thrown`);
}
