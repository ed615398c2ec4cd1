import { defineModule } from '../../module/app-module.js';
import { StoredFileSchema } from './file.entity.js';
import { FileService } from './file.service.js';
import { FILE_SETTINGS, fileSettings } from './file.settings.js';
import { fileGraphQL } from './files.graphql.js';
import { fileRoutes } from './files.routes.js';
import { Migration0011Files } from './migration-0011-files.js';

/** Files: JSON uploaded through pre-signed URLs, validated as a stream, read by batches and answers. */
export const filesModule = defineModule({
  name: 'files',
  entities: [StoredFileSchema],
  migrations: [{ name: '0011-files', class: Migration0011Files }],
  settings: FILE_SETTINGS,
  configKey: 'files',
  config: fileSettings,
  services: (ctx) => ({
    files: new FileService({ orm: ctx.orm, blobs: ctx.blobs, guard: ctx.guard, settings: ctx.settings }),
  }),
  routes: ({ files }) => fileRoutes({ files }),
  graphql: (kit, { files }) => fileGraphQL(kit, files),
  // Pending files whose upload URL expired and completed files past the retention go with their bytes.
  maintenance: ({ files }) => [(now) => files.purge(now)],
});
