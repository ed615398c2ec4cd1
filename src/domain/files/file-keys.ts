/**
 * Where a file's bytes live in the blob store. Everything of one file is under its prefix, so
 * deleting a file is one `deletePrefix`. The upload URL names only `upload`; complete pins the
 * validated version at `content.json` (a key no upload URL names: docs/storage.md, "Uploads").
 */
export const fileKeys = (teamId: string, fileId: string) => {
  const prefix = `teams/${teamId}/files/${fileId}/`;
  return { prefix, upload: `${prefix}upload`, content: `${prefix}content.json` };
};

/** The only media type a file's upload URL accepts. */
export const FILE_CONTENT_TYPE = 'application/json';
