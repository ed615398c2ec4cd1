import { expect } from 'vitest';
import type { ErrorEnvelope } from '../../src/errors.js';

/** Asserts that `res` carries the spec's error envelope with its own status, and returns it. */
export async function expectEnvelope(res: Response, status?: number): Promise<ErrorEnvelope> {
  if (status !== undefined) expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as ErrorEnvelope;
  expect(body).toMatchObject({ object: 'error', status: res.status });
  expect(body.id).toMatch(/^error_[0-9a-z]{20}$/);
  expect(typeof body.title).toBe('string');
  expect(body.metadata).toBeTypeOf('object');
  return body;
}

/** A GraphQL request over HTTP with `key` (null: no credential); `variables` may be JSON text already. */
export async function graphql(
  url: string,
  key: string | null,
  query: string,
  variables: Record<string, unknown> | string = {},
): Promise<{
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions: Record<string, unknown> }[];
}> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers.authorization = `Bearer ${key}`;
  const vars = typeof variables === 'string' ? variables : JSON.stringify(variables);
  const body = `{"query":${JSON.stringify(query)},"variables":${vars}}`;
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers, body });
  return (await res.json()) as never;
}
