import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';
import { MetadataSchema } from '../shared/metadata.schema.js';
import { ProviderId } from '../searches/search.schema.js';

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export const ANSWER_LIMITS = {
  taskChars: 10_000,
  jsonFormatBytes: 64_000,
  urls: 20,
  contextFiles: 20,
  searchResults: 20,
  pageSize: { min: 1, max: 100, default: 50 },
} as const;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * `json_format`: an object whose keys (values empty or examples) are the output's shape, or a
 * JSON Schema, or a string describing the wanted data (decisions.md, "Answers").
 */
export const JsonFormat = z
  .unknown()
  .superRefine((value, ctx) => {
    if (typeof value === 'string') {
      if (value.trim() === '') ctx.addIssue({ code: 'custom', message: 'must not be an empty string' });
      else if (value.length > ANSWER_LIMITS.taskChars) {
        ctx.addIssue({ code: 'custom', message: `is longer than ${ANSWER_LIMITS.taskChars} characters` });
      }
      return;
    }
    if (!isPlainObject(value)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be an object (the output's shape: keys with empty or example values) or a string describing the wanted data (got ${typeName(value)})`,
      });
      return;
    }
    if (JSON.stringify(value).length > ANSWER_LIMITS.jsonFormatBytes) {
      ctx.addIssue({ code: 'custom', message: `is larger than ${ANSWER_LIMITS.jsonFormatBytes} bytes` });
    }
  })
  .transform((v) => v as Record<string, unknown> | string)
  .meta({
    description:
      'The output shape: an object with empty (or example) values, e.g. `{"plan": "", "price": 0}`, or a JSON Schema; or a string describing the wanted data. Absent: `{"answer": ""}`.',
  });

const HttpUrl = z
  .string({ error: (issue) => `must be a URL string (got ${typeName(issue.input)})` })
  .max(8192)
  .refine(
    (url) => {
      try {
        return ['http:', 'https:'].includes(new URL(url).protocol);
      } catch {
        return false;
      }
    },
    { error: 'must be an absolute http(s) URL' },
  );

/** POST /v1/answers (spec "POST /v1/answers"; decisions.md "Answers" and "Additions"). */
export const CreateAnswerInput = z
  .strictObject({
    task: z
      .string({
        error: (issue) =>
          issue.input === undefined ? 'is required' : `must be a string (got ${typeName(issue.input)})`,
      })
      .max(ANSWER_LIMITS.taskChars, { error: `is longer than ${ANSWER_LIMITS.taskChars} characters` })
      .refine((t) => t.trim() !== '', { error: 'must not be empty' })
      .describe('What to find out, in natural language.'),
    json_format: JsonFormat.optional(),
    metadata: MetadataSchema.optional(),
    urls: z
      .array(HttpUrl, { error: 'must be an array of URLs' })
      .min(1, { error: 'must list at least one URL (or be left out to search)' })
      .max(ANSWER_LIMITS.urls, { error: `at most ${ANSWER_LIMITS.urls} URLs` })
      .optional()
      .describe('Read these pages instead of searching.'),
    search: z
      .strictObject({
        provider: ProviderId.optional(),
        limit: z.number().int().min(1).max(ANSWER_LIMITS.searchResults).optional(),
      })
      .optional()
      .describe('Which search provider finds the sources, and how many results to read at most.'),
    context_file_ids: z
      .array(resourceIdString('file'), { error: 'must be an array of file ids' })
      .max(ANSWER_LIMITS.contextFiles, { error: `at most ${ANSWER_LIMITS.contextFiles} files` })
      .optional()
      .describe('Completed `purpose: "context"` files whose contents are read as sources too.'),
  })
  .meta({ id: 'CreateAnswerRequest' });

export type CreateAnswerCommand = z.output<typeof CreateAnswerInput>;

/** What a run needs of the request, stored with the answer. */
export type AnswerRequest = Omit<CreateAnswerCommand, 'task' | 'metadata'>;

export const AnswerIdParams = z.object({ answer_id: resourceId('answer') });

export const ListAnswersQuery = z.object({
  cursor: z.union([queryInt(0, 1_000_000_000), z.number().int().min(0)]).optional(),
  limit: z
    .union([queryInt(ANSWER_LIMITS.pageSize.min, ANSWER_LIMITS.pageSize.max), z.number().int().min(1).max(100)])
    .optional()
    .describe(`1 to ${ANSWER_LIMITS.pageSize.max}, default ${ANSWER_LIMITS.pageSize.default}.`),
});

function resourceIdString(prefix: string) {
  return z
    .string({ error: (issue) => `must be a ${prefix} id string (got ${typeName(issue.input)})` })
    .regex(new RegExp(`^${prefix}_[0-9a-z]{1,64}$`), { error: `must be a ${prefix}_… id` });
}
