import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The files module's settings (src/config.ts reads them with the core's). */
export const FILE_SETTINGS = {
  FILES_MAX_BYTES: {
    schema: int(1, 1024 * 1024 * 1024),
    default: String(200 * 1024 * 1024),
    doc: 'Largest uploaded file (bytes). The embedded store stops a larger upload while receiving; with S3 complete refuses it.',
  },
  FILES_UPLOAD_EXPIRES_SECONDS: {
    schema: int(1, 7 * 86400),
    default: '600',
    doc: 'How long an upload URL (`POST /v1/files`) works; a file not uploaded by then is deleted by maintenance.',
  },
  FILES_DOWNLOAD_EXPIRES_SECONDS: {
    schema: int(1, 86400),
    default: '300',
    doc: 'How long a download URL (`GET /v1/files/{id}/content`) works.',
  },
  FILES_RETENTION_DAYS: {
    schema: int(1, 3650),
    default: '30',
    doc: 'Completed files older than this are deleted with their bytes by maintenance.',
  },
} satisfies SettingsTable;

export interface FileSettings {
  maxBytes: number;
  uploadExpiresSeconds: number;
  downloadExpiresSeconds: number;
  retentionDays: number;
}

export function fileSettings(v: ParsedOf<typeof FILE_SETTINGS>): FileSettings {
  return {
    maxBytes: v.FILES_MAX_BYTES,
    uploadExpiresSeconds: v.FILES_UPLOAD_EXPIRES_SECONDS,
    downloadExpiresSeconds: v.FILES_DOWNLOAD_EXPIRES_SECONDS,
    retentionDays: v.FILES_RETENTION_DAYS,
  };
}
