import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { OutboundGuard } from '../../engine/outbound-guard.js';
import { AppError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Actor } from '../auth/actor.js';
import type { BatchFileItem, BatchFileOptions } from './batch-file.js';
import { checkUpload, readBatchContent, uploadNotFound } from './file-content.js';
import { StoredFile, type FilePurpose } from './file.entity.js';
import { FILE_CONTENT_TYPE, fileKeys } from './file-keys.js';
import { FILE_LIMITS, type CreateFileCommand, type ListFilesCommand } from './file.schema.js';
import type { FileSettings } from './file.settings.js';
import {
  fileView,
  type FileDeletionView,
  type FileDownloadView,
  type FileUploadView,
  type FileView,
} from './file.view.js';

export interface FileServiceDeps {
  orm: Orm;
  blobs: BlobStore;
  guard: OutboundGuard;
  settings: FileSettings;
}

/** What a module reading a file needs of it (see {@link FileService.usable}). */
export interface FileUse {
  /** The purpose the reader takes. */
  purpose: FilePurpose;
  /** The reader's budget for the file's bytes: a larger file is 400 `file_too_large`. */
  maxBytes?: number;
  /** The input field that named the file (`context_file_ids`): it leads the error messages. */
  field?: string;
}

/** Files removed from the store at once by maintenance, per query. */
const PURGE_CHUNK = 500;

/**
 * Uploaded JSON files: a row per file, the bytes in the blob store. Create grants an upload
 * URL; complete validates what was uploaded (streamed) and pins it; delete removes the bytes at
 * once. Other modules read completed files through {@link readBatchItems} (batches),
 * {@link usable} and {@link readContextText} (answers).
 */
export class FileService {
  constructor(private readonly deps: FileServiceDeps) {}

  async create(actor: Actor, command: CreateFileCommand): Promise<FileUploadView> {
    const { settings, blobs } = this.deps;
    const id = newId('file');
    const grant = await blobs.presignUpload(fileKeys(actor.teamId, id).upload, {
      expiresInSeconds: settings.uploadExpiresSeconds,
      contentType: FILE_CONTENT_TYPE,
      maxBytes: settings.maxBytes,
      // Complete checks the bytes themselves; whatever type a plain client declares is fine.
      anyContentType: true,
    });
    const file = Object.assign(new StoredFile(), {
      id,
      teamId: actor.teamId,
      filename: command.filename,
      purpose: command.purpose,
      status: 'pending',
      uploadExpiresAt: grant.expiresAt,
      createdAt: new Date(),
    });
    await this.deps.orm.em.fork().persist(file).flush();
    return {
      id,
      created: fileView(file).created,
      filename: file.filename,
      purpose: file.purpose,
      uploadUrl: grant.url,
      uploadMethod: grant.method,
      uploadHeaders: { 'Content-Type': grant.contentType },
      expiresIn: settings.uploadExpiresSeconds,
    };
  }

  /**
   * Validates the upload and makes the file `completed`. Race-safe without locks: the version
   * checked is pinned by etag, and only one complete moves the row from `pending`.
   */
  async complete(actor: Actor, id: string, signal?: AbortSignal): Promise<FileView> {
    const file = await this.find(actor, id);
    if (file.status === 'completed') throw alreadyCompleted(id);
    if (file.status === 'failed') throw failedBefore(file);
    const keys = fileKeys(file.teamId, file.id);
    const { blobs, settings, guard } = this.deps;
    let checked;
    try {
      checked = await checkUpload(blobs, keys.upload, file, { maxBytes: settings.maxBytes, guard, signal });
    } catch (err) {
      // Nothing there: never uploaded, or a concurrent complete (or delete) took it meanwhile.
      if (err instanceof AppError && err.code === 'upload_not_found') throw await this.lostRace(file, err);
      // What is wrong with the file itself ends it: nothing of it is kept.
      if (err instanceof AppError && err.kind === 'validation' && !(await this.fail(file, err.detail))) {
        throw await this.lostRace(file, err);
      }
      throw err;
    }
    const pinned = await blobs.copy(keys.upload, keys.content, { ifMatch: checked.etag });
    // Gone since it was checked: a concurrent complete moved it, or a delete removed the file.
    if (!pinned) throw await this.lostRace(file, uploadNotFound(id));
    const rows = await exec<{ id: string }>(
      this.deps.orm.em.fork(),
      `update files set status = 'completed', bytes = ?, items = ?, completed_at = now()
       where id = ? and team_id = ? and status = 'pending' returning id`,
      [checked.bytes, checked.items, file.id, file.teamId],
    );
    if (rows.length === 0) throw await this.lostRace(file, null);
    await blobs.delete(keys.upload);
    return this.get(actor, id);
  }

  /** Why a complete found the file moved on under it; `fallback` when it is still pending. */
  private async lostRace(file: StoredFile, fallback: AppError | null): Promise<AppError> {
    const current = await this.deps.orm.em.fork().findOne(StoredFile, { id: file.id });
    if (!current || current.status === 'deleted') {
      // Deleted meanwhile: drop whatever this complete copied after the delete.
      await this.deps.blobs.deletePrefix(fileKeys(file.teamId, file.id).prefix);
      return errors.notFound('file', file.id);
    }
    if (current.status === 'completed') return alreadyCompleted(file.id);
    if (current.status === 'failed') return failedBefore(current);
    return (
      fallback ?? new AppError('conflict', 'file_changed', `file ${JSON.stringify(file.id)} changed; complete again`)
    );
  }

  async get(actor: Actor, id: string): Promise<FileView> {
    return fileView(await this.find(actor, id));
  }

  async list(actor: Actor, query: ListFilesCommand): Promise<{ files: FileView[]; nextCursor: number | null }> {
    const limit = query.limit ?? FILE_LIMITS.pageSize.default;
    const offset = query.cursor ?? 0;
    const where = {
      teamId: actor.teamId,
      status: { $ne: 'deleted' as const },
      ...(query.purpose ? { purpose: query.purpose } : {}),
    };
    const [files, total] = await this.deps.orm.em
      .fork()
      .findAndCount(StoredFile, where, { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset });
    return { files: files.map(fileView), nextCursor: offset + files.length < total ? offset + files.length : null };
  }

  /** A short-lived URL of a completed file's content. */
  async download(actor: Actor, id: string): Promise<FileDownloadView> {
    return this.downloadOf(actor, fileView(await this.usableFile(actor, id, {})));
  }

  /** {@link download} of a file already read for `actor` (no second look in the database). */
  async downloadOf(actor: Actor, file: FileView): Promise<FileDownloadView> {
    const expiresIn = this.deps.settings.downloadExpiresSeconds;
    const downloadUrl = await this.deps.blobs.signedGetUrl(fileKeys(actor.teamId, file.id).content, {
      expiresInSeconds: expiresIn,
      filename: file.filename,
    });
    return { id: file.id, downloadUrl, expiresIn };
  }

  /**
   * Deletes the file and its bytes at once (a download URL given before answers 404). While its
   * upload URL still works, the row stays behind as a hidden `deleted` marker, so the bytes a
   * late PUT through that URL writes are removed by maintenance once the URL has expired.
   */
  async delete(actor: Actor, id: string): Promise<FileDeletionView> {
    const em = this.deps.orm.em.fork();
    const params = [id, actor.teamId];
    let rows = await exec<{ id: string }>(
      em,
      `update files set status = 'deleted' where id = ? and team_id = ? and status <> 'deleted'
       and upload_expires_at > now() returning id`,
      params,
    );
    if (rows.length === 0) {
      rows = await exec(
        em,
        `delete from files where id = ? and team_id = ? and status <> 'deleted' returning id`,
        params,
      );
    }
    if (rows.length === 0) throw errors.notFound('file', id);
    await this.deps.blobs.deletePrefix(fileKeys(actor.teamId, id).prefix);
    return { id, deleted: true };
  }

  /**
   * The items and batch options of a completed `purpose: "batch"` file of the actor's team
   * (`POST /v1/batches {file_id}`). 404 for an unknown file, 400 for one of another purpose or
   * not completed.
   */
  async readBatchItems(actor: Actor, id: string): Promise<{ items: BatchFileItem[]; options: BatchFileOptions }> {
    const file = await this.usableFile(actor, id, { purpose: 'batch' });
    const { blobs, settings, guard } = this.deps;
    return readBatchContent(blobs, fileKeys(file.teamId, file.id).content, id, { maxBytes: settings.maxBytes, guard });
  }

  /**
   * A completed file of the actor's team that another module may read: of `use.purpose`, at
   * most `use.maxBytes`. 404 `file_not_found` for an unknown file (another team's too); 400
   * `invalid_file_purpose`, `file_not_completed` or `file_too_large`, their messages led by
   * `use.field`. Reads no content: a caller checks its input with it before storing anything.
   *
   * @example
   * await ctx.use(filesModule).files.usable(actor, id, { purpose: 'context', maxBytes, field: 'context_file_ids' });
   */
  async usable(actor: Actor, id: string, use: FileUse): Promise<FileView> {
    return fileView(await this.usableFile(actor, id, use));
  }

  /**
   * The content of a completed `purpose: "context"` file of the actor's team, as text (valid
   * UTF-8 JSON, checked by complete; a leading byte order mark dropped), for answers'
   * `context_file_ids`. Refused as {@link usable} refuses it (`use.maxBytes`: a caller's budget
   * for text).
   *
   * @example
   * const text = await ctx.use(filesModule).files.readContextText(actor, id, { maxBytes: 20 * 1024 * 1024 });
   */
  async readContextText(actor: Actor, id: string, use: Omit<FileUse, 'purpose'> = {}): Promise<string> {
    const file = await this.usableFile(actor, id, { ...use, purpose: 'context' });
    const bytes = await this.deps.blobs.get(fileKeys(file.teamId, file.id).content);
    if (!bytes) throw errors.notFound('file', id);
    return bytes.toString('utf8').replace(/^\uFEFF/, '');
  }

  /**
   * Maintenance: deletes, with their bytes, files never completed whose upload URL expired and
   * completed files older than the retention.
   */
  async purge(now: Date): Promise<{ files_expired: number; files_retained: number; file_uploads_swept: number }> {
    const cutoff = new Date(now.getTime() - this.deps.settings.retentionDays * 86_400_000);
    const expired = await this.purgeWhere(`status <> 'completed' and upload_expires_at < ?`, now);
    const retained = await this.purgeWhere(`status = 'completed' and completed_at < ?`, cutoff);
    return { files_expired: expired, files_retained: retained, file_uploads_swept: await this.sweepUploads(now) };
  }

  /**
   * An S3 upload URL can be used again until it expires (S3 has no single-use URLs), recreating
   * the `upload` object of a completed file; it never touches the content. Once the URL has
   * expired, that object is removed for good.
   */
  private async sweepUploads(now: Date): Promise<number> {
    let count = 0;
    for (;;) {
      const rows = await exec<{ id: string; team_id: string }>(
        this.deps.orm.em.fork(),
        `update files set upload_swept = true where id in (
           select id from files where status = 'completed' and not upload_swept and upload_expires_at < ? limit ?)
         returning id, team_id`,
        [now, PURGE_CHUNK],
      );
      await this.deps.blobs.delete(rows.map((row) => fileKeys(row.team_id, row.id).upload));
      count += rows.length;
      if (rows.length < PURGE_CHUNK) return count;
    }
  }

  private async purgeWhere(condition: string, before: Date): Promise<number> {
    let count = 0;
    for (;;) {
      const rows = await exec<{ id: string; team_id: string }>(
        this.deps.orm.em.fork(),
        `delete from files where id in (select id from files where ${condition} limit ?) returning id, team_id`,
        [before, PURGE_CHUNK],
      );
      for (const row of rows) await this.deps.blobs.deletePrefix(fileKeys(row.team_id, row.id).prefix);
      count += rows.length;
      if (rows.length < PURGE_CHUNK) return count;
    }
  }

  /**
   * Marks a pending file failed and deletes its bytes; false when it was not pending any more
   * (completed meanwhile: only the upload object, never the content, is removed then).
   */
  private async fail(file: StoredFile, reason: string): Promise<boolean> {
    const rows = await exec<{ id: string }>(
      this.deps.orm.em.fork(),
      `update files set status = 'failed', error = ? where id = ? and status = 'pending' returning id`,
      [reason, file.id],
    );
    const keys = fileKeys(file.teamId, file.id);
    if (rows.length === 0) {
      await this.deps.blobs.delete(keys.upload);
      return false;
    }
    await this.deps.blobs.deletePrefix(keys.prefix);
    return true;
  }

  /** {@link usable}, also for the file's own routes (no purpose wanted there). */
  private async usableFile(actor: Actor, id: string, use: Partial<FileUse>): Promise<StoredFile> {
    const file = await this.find(actor, id);
    const named = `${use.field ? `${use.field}: ` : ''}file ${JSON.stringify(id)}`;
    if (use.purpose && file.purpose !== use.purpose) {
      throw new AppError(
        'validation',
        'invalid_file_purpose',
        `${named} has purpose ${JSON.stringify(file.purpose)}; this needs a ${JSON.stringify(use.purpose)} file`,
      );
    }
    if (file.status !== 'completed') {
      throw new AppError(
        'validation',
        'file_not_completed',
        `${named} is ${file.status}: upload its content and complete it first`,
      );
    }
    if (use.maxBytes !== undefined && Number(file.bytes) > use.maxBytes) {
      throw new AppError(
        'validation',
        'file_too_large',
        `${named} has ${file.bytes} bytes; at most ${use.maxBytes} can be used here`,
        { metadata: { max_bytes: String(use.maxBytes) } },
      );
    }
    return file;
  }

  private async find(actor: Actor, id: string): Promise<StoredFile> {
    const file = await this.deps.orm.em
      .fork()
      .findOne(StoredFile, { id, teamId: actor.teamId, status: { $ne: 'deleted' } });
    if (!file) throw errors.notFound('file', id);
    return file;
  }
}

function alreadyCompleted(id: string): AppError {
  return new AppError('validation', 'file_already_completed', `file ${JSON.stringify(id)} is completed already`);
}

function failedBefore(file: StoredFile): AppError {
  return new AppError(
    'validation',
    'file_failed',
    `file ${JSON.stringify(file.id)} was refused by an earlier complete (${file.error ?? 'invalid content'}); create a new file`,
  );
}
