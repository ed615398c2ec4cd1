import { z } from 'zod';
import { queryInt, resourceId } from '../../validation.js';

export const FILE_LIMITS = {
  filenameLength: 255,
  pageSize: { min: 1, max: 100, default: 50 },
} as const;

export const FILE_PURPOSES = ['context', 'batch'] as const;

const purpose = z.enum(FILE_PURPOSES, { error: 'must be context or batch' });

/**
 * A plain file name ending in `.json`: it becomes the download's name, so no path separators
 * or control characters.
 */
const filename = z
  .string({ error: 'is required (a file name ending in .json)' })
  .min(1, { error: 'must not be empty' })
  .max(FILE_LIMITS.filenameLength, { error: `must be at most ${FILE_LIMITS.filenameLength} characters` })
  .refine((name) => !/[/\\]/.test(name), { error: 'must be a file name, without / or \\' })
  // eslint-disable-next-line no-control-regex
  .refine((name) => !/[\u0000-\u001f\u007f]/.test(name), { error: 'must not contain control characters' })
  .refine((name) => /^.+\.json$/i.test(name) && name.trim() === name, {
    error: 'must end in .json (the file holds JSON)',
  });

/** POST /v1/files. */
export const CreateFileInput = z
  .strictObject({
    filename: filename.describe('Name of the file; must end in .json.'),
    purpose: purpose.describe('`context` (sources for answers) or `batch` (batch items).'),
  })
  .meta({ id: 'CreateFileRequest' });

export type CreateFileCommand = z.output<typeof CreateFileInput>;

export const FileIdParams = z.object({ file_id: resourceId('file') });

export const ListFilesQuery = z.object({
  purpose: purpose.optional().describe('Only files of this purpose.'),
  cursor: queryInt(0, 1_000_000_000).optional().describe('Offset from the previous page.'),
  limit: queryInt(FILE_LIMITS.pageSize.min, FILE_LIMITS.pageSize.max)
    .optional()
    .describe(`1 to ${FILE_LIMITS.pageSize.max}, default ${FILE_LIMITS.pageSize.default}.`),
});

export type ListFilesCommand = z.output<typeof ListFilesQuery>;
