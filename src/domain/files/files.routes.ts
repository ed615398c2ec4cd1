import { defineRoute } from '../../module/route.js';
import {
  FileContentObject,
  FileDeletionObject,
  FileListObject,
  FileObject,
  FileUploadObject,
  presentFile,
  presentFileContent,
  presentFileDeletion,
  presentFileUpload,
} from './file.presenter.js';
import { CreateFileInput, FileIdParams, ListFilesQuery } from './file.schema.js';
import type { FileService } from './file.service.js';

const tags = ['Files'];
const notFound = { 404: { description: 'No such file (`file_not_found`).' } };

export function fileRoutes({ files }: { files: FileService }) {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/files',
      operationId: 'createFile',
      summary: 'Create a file upload',
      description:
        'Returns a pre-signed URL to PUT a JSON file to (up to 200 MB, without credentials, before `expires_in` seconds pass), then call complete.',
      tags,
      body: CreateFileInput,
      responses: { 200: { description: 'The upload grant.', schema: FileUploadObject } },
      handler: async ({ actor, body }) => presentFileUpload(await files.create(actor, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/files/{file_id}/complete',
      operationId: 'completeFile',
      summary: 'Complete a file upload',
      description:
        'Validates the uploaded JSON as a stream (size, UTF-8, syntax, nesting; for `batch` files every item, errors naming its index) and makes the file `completed`. A refused upload is deleted and the file `failed`.',
      tags,
      params: FileIdParams,
      responses: {
        200: { description: 'The completed file.', schema: FileObject },
        400: {
          description:
            'The content is invalid (`invalid_json`, `file_too_large`, `validation_error`), or the file is completed or failed already.',
        },
        404: { description: 'No such file (`file_not_found`), or nothing uploaded yet (`upload_not_found`).' },
      },
      handler: async ({ actor, params, signal }) => presentFile(await files.complete(actor, params.file_id, signal)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/files',
      operationId: 'listFiles',
      summary: 'List files',
      tags,
      query: ListFilesQuery,
      responses: { 200: { description: 'The team’s files, newest first.', schema: FileListObject } },
      handler: async ({ actor, query }) => {
        const { files: list, nextCursor } = await files.list(actor, query);
        return {
          object: 'list',
          data: list.map(presentFile),
          has_more: nextCursor !== null,
          ...(nextCursor !== null ? { cursor: nextCursor } : {}),
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/files/{file_id}',
      operationId: 'getFile',
      summary: 'Get a file',
      tags,
      params: FileIdParams,
      responses: { 200: { description: 'The file.', schema: FileObject }, ...notFound },
      handler: async ({ actor, params }) => presentFile(await files.get(actor, params.file_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/files/{file_id}/content',
      operationId: 'getFileContent',
      summary: 'Download a file',
      description: 'A short-lived URL that GETs the completed file’s content.',
      tags,
      params: FileIdParams,
      responses: {
        200: { description: 'The download URL.', schema: FileContentObject },
        400: { description: 'The file is not completed (`file_not_completed`).' },
        ...notFound,
      },
      handler: async ({ actor, params }) => presentFileContent(await files.download(actor, params.file_id)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/files/{file_id}',
      operationId: 'deleteFile',
      summary: 'Delete a file',
      description: 'Deletes the file and its stored data at once.',
      tags,
      params: FileIdParams,
      responses: { 200: { description: 'The deletion result.', schema: FileDeletionObject }, ...notFound },
      handler: async ({ actor, params }) => presentFileDeletion(await files.delete(actor, params.file_id)),
    }),
  ];
}
