import { z } from 'zod';
import type { GraphQLKit } from '../../module/graphql.js';
import { CreateFileInput, FILE_LIMITS, FileIdParams, ListFilesQuery } from './file.schema.js';
import type { FileService } from './file.service.js';
import type { FileDeletionView, FileUploadView, FileView } from './file.view.js';

/** GraphQL passes numbers, REST passes query strings: the same limits, typed as numbers. */
const listArgs = ListFilesQuery.extend({
  cursor: z.number().int().min(0).optional(),
  limit: z.number().int().min(FILE_LIMITS.pageSize.min).max(FILE_LIMITS.pageSize.max).optional(),
});

/** Files over GraphQL: the same views, zod schemas and service as REST. */
export function fileGraphQL(kit: GraphQLKit, files: FileService): void {
  const { builder } = kit;

  const FileRef = builder.objectRef<FileView>('File').implement({
    description: 'An uploaded JSON file (`context` for answers, `batch` for batches).',
    fields: (t) => ({
      id: t.exposeID('id'),
      created: t.exposeInt('created', { description: 'Epoch seconds.' }),
      filename: t.exposeString('filename'),
      bytes: t.exposeFloat('bytes', { description: 'Size in bytes; 0 until completed.' }),
      purpose: t.exposeString('purpose'),
      status: t.exposeString('status', { description: 'pending, completed or failed.' }),
      completedAt: t.exposeInt('completedAt', { nullable: true }),
      uploadExpiresAt: t.exposeInt('uploadExpiresAt'),
      itemsCount: t.exposeInt('itemsCount', { nullable: true }),
      error: t.exposeString('error', { nullable: true }),
      downloadUrl: t.string({
        nullable: true,
        description: 'A short-lived URL of the content (completed files only).',
        resolve: async (f, _, ctx) =>
          f.status === 'completed' ? (await files.downloadOf(ctx.actor(), f)).downloadUrl : null,
      }),
    }),
  });

  const FileUploadRef = builder.objectRef<FileUploadView>('FileUpload').implement({
    description: 'Permission to upload a file: PUT the JSON to uploadUrl with uploadHeaders, then completeFile.',
    fields: (t) => ({
      id: t.exposeID('id'),
      created: t.exposeInt('created'),
      filename: t.exposeString('filename'),
      purpose: t.exposeString('purpose'),
      uploadUrl: t.exposeString('uploadUrl'),
      uploadMethod: t.exposeString('uploadMethod'),
      uploadHeaders: t.expose('uploadHeaders', { type: 'JSON' }),
      expiresIn: t.exposeInt('expiresIn', { description: 'Seconds until uploadUrl stops working.' }),
    }),
  });

  const FileDeletionRef = builder.objectRef<FileDeletionView>('FileDeletion').implement({
    fields: (t) => ({ id: t.exposeID('id'), deleted: t.exposeBoolean('deleted') }),
  });

  const CreateFile = kit.input(CreateFileInput, 'CreateFileUploadInput');

  builder.queryFields((t) => ({
    file: t.field({
      type: FileRef,
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(FileIdParams.shape.file_id),
      resolve: (_, args, ctx) => files.get(ctx.actor(), String(args.id)),
    }),
    files: t.field({
      type: [FileRef],
      description: 'The team’s files, newest first.',
      args: { purpose: t.arg.string(), cursor: t.arg.int(), limit: t.arg.int() },
      complexity: kit.pageCost(FILE_LIMITS.pageSize.default),
      validate: kit.validate(listArgs),
      resolve: async (_, args, ctx) =>
        (await files.list(ctx.actor(), kit.parsed<z.output<typeof listArgs>>(args))).files,
    }),
  }));

  builder.mutationFields((t) => ({
    createFileUpload: t.field({
      type: FileUploadRef,
      args: { input: t.arg({ type: CreateFile, required: true }) },
      validate: kit.validate(z.object({ input: kit.fromCamel(CreateFileInput) })),
      resolve: (_, args, ctx) =>
        files.create(ctx.actor(), kit.parsed<{ input: z.output<typeof CreateFileInput> }>(args).input),
    }),
    completeFile: t.field({
      type: FileRef,
      description: 'Validates the uploaded JSON and makes the file completed.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(FileIdParams.shape.file_id),
      resolve: (_, args, ctx) => files.complete(ctx.actor(), String(args.id)),
    }),
    deleteFile: t.field({
      type: FileDeletionRef,
      description: 'Deletes the file and its bytes at once.',
      args: { id: t.arg.id({ required: true }) },
      validate: kit.validateId(FileIdParams.shape.file_id),
      resolve: (_, args, ctx) => files.delete(ctx.actor(), String(args.id)),
    }),
  }));
}
