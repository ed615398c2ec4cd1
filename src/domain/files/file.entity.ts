import { BigIntType, EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

export type FilePurpose = 'context' | 'batch';
/**
 * `pending` until complete validates the upload; `failed` when it did not (its bytes are gone).
 * `deleted` is never shown: a deleted file whose upload URL still works, kept until it expires.
 */
export type FileStatus = 'pending' | 'completed' | 'failed' | 'deleted';

/** An uploaded JSON file: its bytes live in the blob store (see file-keys.ts). */
export class StoredFile {
  id!: string;
  teamId!: string;
  filename!: string;
  purpose!: FilePurpose;
  status!: FileStatus;
  /** Size of the validated content; 0 until completed. */
  bytes = 0;
  /** When the upload URL stops working. */
  uploadExpiresAt!: Date;
  /** Batch files: how many items the file holds (set by complete). */
  items: number | null = null;
  /** Why complete refused the upload (failed files). */
  error: string | null = null;
  createdAt: Date = new Date();
  completedAt: Date | null = null;
  /** The upload object of a completed file was removed after its URL expired (maintenance). */
  uploadSwept = false;
}

export const StoredFileSchema = new EntitySchema<StoredFile>({
  class: StoredFile,
  tableName: 'files',
  indexes: [
    { name: 'files_team_id_created_at_index', properties: ['teamId', 'createdAt'] },
    // Maintenance's scans (migration-0011-files.ts).
    { name: 'files_status_upload_expires_at_index', properties: ['status', 'uploadExpiresAt'] },
    { name: 'files_status_completed_at_index', properties: ['status', 'completedAt'] },
    {
      name: 'files_upload_unswept_index',
      expression: 'create index files_upload_unswept_index on files (upload_expires_at) where not upload_swept',
    },
  ],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    filename: { type: 'text' },
    purpose: { type: 'string', columnType: 'text' },
    status: { type: 'string', columnType: 'text' },
    bytes: { type: new BigIntType('number'), columnType: 'bigint', default: 0 },
    uploadExpiresAt: { type: 'Date', columnType: 'timestamptz' },
    items: { type: 'integer', nullable: true },
    error: { type: 'text', nullable: true },
    createdAt: columns.createdAt(),
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    uploadSwept: { type: 'boolean', default: false },
  },
});
