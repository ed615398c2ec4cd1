import { z } from 'zod';

export const METADATA_LIMITS = { pairs: 50, keyLength: 40, valueLength: 500 } as const;

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * The spec's metadata rule, shared by every resource that accepts metadata: string keys
 * to string values, at most 50 pairs, keys at most 40 characters, values at most 500.
 */
export const MetadataSchema = z
  .record(
    z.string().max(METADATA_LIMITS.keyLength, { error: `is longer than ${METADATA_LIMITS.keyLength} characters` }),
    z
      .string({ error: (issue) => `must be a string (got ${typeName(issue.input)})` })
      .max(METADATA_LIMITS.valueLength, { error: `is longer than ${METADATA_LIMITS.valueLength} characters` }),
    {
      error: (issue) =>
        issue.code === 'invalid_type' ? 'must be an object of string keys to string values' : undefined,
    },
  )
  .refine((obj) => Object.keys(obj).length <= METADATA_LIMITS.pairs, {
    error: (issue) => `at most ${METADATA_LIMITS.pairs} pairs (got ${Object.keys(issue.input as object).length})`,
  })
  .meta({
    id: 'Metadata',
    description:
      'String keys to string values; at most 50 pairs, keys ≤ 40 characters, values ≤ 500. Echoed unchanged.',
  });

export type Metadata = Record<string, string>;
