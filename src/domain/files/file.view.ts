import { epochSeconds } from '../shared/time.js';
import type { FilePurpose, FileStatus, StoredFile } from './file.entity.js';

/** A file as both transports show it (REST in the spec's snake_case, GraphQL as is). */
export interface FileView {
  id: string;
  /** Epoch seconds. */
  created: number;
  filename: string;
  /** Size in bytes of the validated content; 0 until completed. */
  bytes: number;
  purpose: FilePurpose;
  /** Never `deleted`: the service does not show deleted files. */
  status: Exclude<FileStatus, 'deleted'>;
  /** Epoch seconds; null until completed. */
  completedAt: number | null;
  /** Epoch seconds the upload URL stops working (a file not uploaded by then is deleted). */
  uploadExpiresAt: number;
  /** Batch files: the number of items; null otherwise or until completed. */
  itemsCount: number | null;
  /** Why complete refused the upload (failed files). */
  error: string | null;
}

/** Permission to upload a file's bytes: a PUT of the JSON to `uploadUrl` with `uploadHeaders`. */
export interface FileUploadView {
  id: string;
  created: number;
  filename: string;
  purpose: FilePurpose;
  uploadUrl: string;
  uploadMethod: 'PUT';
  /** Headers to send with the PUT (S3 signs the content type: send it exactly). */
  uploadHeaders: Record<string, string>;
  /** Seconds until the upload URL stops working. */
  expiresIn: number;
}

/** A short-lived URL that GETs the file's content. */
export interface FileDownloadView {
  id: string;
  downloadUrl: string;
  expiresIn: number;
}

export interface FileDeletionView {
  id: string;
  deleted: true;
}

export function fileView(file: StoredFile): FileView {
  return {
    id: file.id,
    created: epochSeconds(file.createdAt),
    filename: file.filename,
    bytes: Number(file.bytes),
    purpose: file.purpose,
    status: file.status === 'deleted' ? 'failed' : file.status,
    completedAt: file.completedAt ? epochSeconds(file.completedAt) : null,
    uploadExpiresAt: epochSeconds(file.uploadExpiresAt),
    itemsCount: file.items,
    error: file.error,
  };
}
