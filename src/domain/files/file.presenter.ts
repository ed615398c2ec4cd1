import { z } from 'zod';
import type { FileDeletionView, FileDownloadView, FileUploadView, FileView } from './file.view.js';

// REST: the views in the spec's snake_case (the schemas also document the responses).

export const FileObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('file'),
    created: z.number().int().describe('Epoch seconds.'),
    filename: z.string(),
    bytes: z.number().int().describe('Size in bytes; 0 until completed.'),
    purpose: z.enum(['context', 'batch']),
    status: z.enum(['pending', 'completed', 'failed']),
    completed_at: z.number().int().nullable().describe('Epoch seconds.'),
    upload_expires_at: z.number().int().describe('Epoch seconds the upload URL stops working.'),
    items_count: z.number().int().nullable().describe('Batch files: the number of items.'),
    error: z.string().nullable().describe('Why complete refused the upload (failed files).'),
  })
  .meta({ id: 'File' });

export function presentFile(file: FileView): z.output<typeof FileObject> {
  return {
    id: file.id,
    object: 'file',
    created: file.created,
    filename: file.filename,
    bytes: file.bytes,
    purpose: file.purpose,
    status: file.status,
    completed_at: file.completedAt,
    upload_expires_at: file.uploadExpiresAt,
    items_count: file.itemsCount,
    error: file.error,
  };
}

export const FileUploadObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('file.upload'),
    created: z.number().int(),
    upload_url: z.string().describe('PUT the JSON here, without credentials, before it expires.'),
    expires_in: z.number().int().describe('Seconds until upload_url stops working.'),
    upload_method: z.literal('PUT'),
    upload_headers: z.record(z.string(), z.string()).describe('Headers to send with the PUT.'),
    filename: z.string(),
    purpose: z.enum(['context', 'batch']),
    status: z.literal('pending'),
  })
  .meta({ id: 'FileUpload' });

export function presentFileUpload(grant: FileUploadView): z.output<typeof FileUploadObject> {
  return {
    id: grant.id,
    object: 'file.upload',
    created: grant.created,
    upload_url: grant.uploadUrl,
    expires_in: grant.expiresIn,
    upload_method: grant.uploadMethod,
    upload_headers: grant.uploadHeaders,
    filename: grant.filename,
    purpose: grant.purpose,
    status: 'pending',
  };
}

export const FileContentObject = z
  .looseObject({
    id: z.string(),
    object: z.literal('file.content'),
    download_url: z.string().describe('GET the content here, without credentials, before it expires.'),
    expires_in: z.number().int(),
  })
  .meta({ id: 'FileContent' });

export function presentFileContent(download: FileDownloadView): z.output<typeof FileContentObject> {
  return {
    id: download.id,
    object: 'file.content',
    download_url: download.downloadUrl,
    expires_in: download.expiresIn,
  };
}

export const FileDeletionObject = z
  .looseObject({ id: z.string(), object: z.literal('file'), deleted: z.boolean() })
  .meta({ id: 'FileDeletion' });

export function presentFileDeletion(deletion: FileDeletionView): z.output<typeof FileDeletionObject> {
  return { id: deletion.id, object: 'file', deleted: deletion.deleted };
}

export const FileListObject = z.object({
  object: z.literal('list'),
  data: z.array(FileObject),
  has_more: z.boolean(),
  cursor: z.number().int().optional().describe('Present when a further page exists.'),
});
