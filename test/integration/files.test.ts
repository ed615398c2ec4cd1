import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKeys } from '../../src/domain/files/file-keys.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { startS3rver, type S3rverHandle } from '../support/s3rver.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Small enough that an oversized upload is cheap to send. */
const MAX_BYTES = 256 * 1024;

/**
 * The Files API end to end on both stores: the embedded one (the service receives the PUT) and
 * S3 (s3rver behind a front door that checks signatures like a private bucket). Uploads use plain
 * fetch without credentials, as any HTTP client would.
 */
describe.each(['local', 's3'] as const)('files on the %s store', (store) => {
  let app: TestApp;
  let s3: S3rverHandle | null = null;

  beforeAll(async () => {
    if (store === 's3') s3 = await startS3rver();
    app = await startTestApp({
      config: {
        files: { maxBytes: MAX_BYTES, uploadExpiresSeconds: 600, downloadExpiresSeconds: 300, retentionDays: 30 },
        ...(s3 ? { s3: { ...s3.credentials, bucket: 'files-test', region: s3.region } } : {}),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await s3?.close();
  });

  const create = async (body: unknown, key?: string) => {
    const res = await app.request('/v1/files', { method: 'POST', json: body, ...(key ? { key } : {}) });
    return res;
  };
  const grantFor = async (purpose: 'context' | 'batch' = 'context', filename = 'data.json'): Promise<Json> => {
    const res = await create({ filename, purpose });
    expect(res.status).toBe(200);
    return (await res.json()) as Json;
  };
  /** A plain PUT with the headers the grant names (what an SDK user copies from the docs). */
  const put = (grant: Json, body: string | Buffer, headers: Record<string, string> = grant.upload_headers) =>
    fetch(grant.upload_url, { method: 'PUT', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
  // Bodiless POST/GET with the JSON content type, as the official SDKs send them.
  const complete = (id: string, key?: string) =>
    app.request(`/v1/files/${id}/complete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      ...(key ? { key } : {}),
    });
  const get = (path: string) => app.request(path, { headers: { 'content-type': 'application/json' } });
  const keysOf = (id: string) => fileKeys(app.teamId, id);
  const noBytes = async (id: string) => {
    expect(await app.container.blobs.head(keysOf(id).upload)).toBeNull();
    expect(await app.container.blobs.head(keysOf(id).content)).toBeNull();
  };
  const uploadAndComplete = async (body: string, purpose: 'context' | 'batch' = 'context') => {
    const grant = await grantFor(purpose);
    expect((await put(grant, body)).status).toBe(200);
    return { grant, res: await complete(grant.id) };
  };

  it('creates, uploads, completes, shows, downloads and deletes a file', async () => {
    const grant = await grantFor('context', 'notes.json');
    expect(grant).toMatchObject({ object: 'file.upload', expires_in: 600, status: 'pending', purpose: 'context' });
    expect(grant.id).toMatch(/^file_[0-9a-z]{20}$/);
    expect(Number.isInteger(grant.created)).toBe(true);
    expect(grant.upload_url).toMatch(/^http:\/\/(127\.0\.0\.1|localhost):\d+\//);

    const pending = (await (await get(`/v1/files/${grant.id}`)).json()) as Json;
    expect(pending).toMatchObject({
      id: grant.id,
      object: 'file',
      status: 'pending',
      bytes: 0,
      filename: 'notes.json',
    });

    const content = JSON.stringify({ facts: ['Zürich is in Switzerland', 'π ≈ 3.14159'], n: 42 });
    // The plainest PUT there is: fetch with a string body (it declares text/plain;charset=UTF-8).
    const uploaded = await fetch(grant.upload_url, { method: 'PUT', body: content });
    expect(uploaded.status).toBe(200);

    const completedRes = await complete(grant.id);
    expect(completedRes.status).toBe(200);
    const completed = (await completedRes.json()) as Json;
    expect(completed).toMatchObject({
      id: grant.id,
      object: 'file',
      status: 'completed',
      purpose: 'context',
      filename: 'notes.json',
      bytes: Buffer.byteLength(content),
    });
    expect(Number.isInteger(completed.completed_at)).toBe(true);
    expect((await (await get(`/v1/files/${grant.id}`)).json()) as Json).toEqual(completed);
    // The upload key is gone; the validated version lives under a key no upload URL names.
    expect(await app.container.blobs.head(keysOf(grant.id).upload)).toBeNull();

    const download = (await (await get(`/v1/files/${grant.id}/content`)).json()) as Json;
    expect(download).toMatchObject({ id: grant.id, object: 'file.content', expires_in: 300 });
    const fetched = await fetch(download.download_url);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe(content);

    const deleted = await app.request(`/v1/files/${grant.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id: grant.id, object: 'file', deleted: true });
    expect((await expectEnvelope(await get(`/v1/files/${grant.id}`), 404)).code).toBe('file_not_found');
    expect((await fetch(download.download_url)).status).toBe(404);
    expect((await expectEnvelope(await get(`/v1/files/${grant.id}/content`), 404)).code).toBe('file_not_found');
    const again = await app.request(`/v1/files/${grant.id}`, { method: 'DELETE' });
    expect((await expectEnvelope(again, 404)).code).toBe('file_not_found');
    await noBytes(grant.id);
  });

  it('validates batch files item by item, naming the index, and keeps nothing of a refused one', async () => {
    const items = [
      { custom_id: 'a', url: 'https://example.com/a' },
      { custom_id: 'b', url: 'https://example.com/b', metadata: { k: 'v' } },
    ];
    const ok = await uploadAndComplete(JSON.stringify(items), 'batch');
    expect(ok.res.status).toBe(200);
    expect(await ok.res.json()).toMatchObject({ status: 'completed', purpose: 'batch', items_count: 2 });

    const jsonl = `${JSON.stringify(items[0])}\n${JSON.stringify(items[1])}\n`;
    const lines = await uploadAndComplete(jsonl, 'batch');
    expect(await lines.res.json()).toMatchObject({ status: 'completed', items_count: 2 });

    const bad = [...items, { custom_id: 'c', url: 'mailto:x@example.com' }];
    const refused = await uploadAndComplete(JSON.stringify(bad), 'batch');
    const envelope = await expectEnvelope(refused.res, 400);
    expect(envelope.code).toBe('validation_error');
    expect(envelope.detail).toMatch(/^items\[2\]\.url: /);
    expect(envelope.metadata).toMatchObject({ item_index: '2', field: 'items[2].url' });
    await noBytes(refused.grant.id);
    const failed = (await (await get(`/v1/files/${refused.grant.id}`)).json()) as Json;
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed.error).toMatch(/items\[2\]\.url/);
    // A refused file stays refused: complete again is a 400, not a second look.
    expect((await expectEnvelope(await complete(refused.grant.id), 400)).code).toBe('file_failed');

    const duplicate = await uploadAndComplete(JSON.stringify([items[0], items[0]]), 'batch');
    expect((await expectEnvelope(duplicate.res, 400)).detail).toMatch(/^items\[1\]\.custom_id: duplicate/);
    const missing = await uploadAndComplete(JSON.stringify([items[0], { custom_id: 'x' }]), 'batch');
    expect((await expectEnvelope(missing.res, 400)).detail).toMatch(/^items\[1\]\.url/);
    const notItems = await uploadAndComplete('"just a string"', 'batch');
    expect((await expectEnvelope(notItems.res, 400)).code).toBe('validation_error');
    for (const { grant } of [duplicate, missing, notItems]) await noBytes(grant.id);
  });

  it.each([
    ['invalid JSON', '{"a": tru}', 'invalid_json'],
    ['an empty upload', '', 'invalid_json'],
    ['a nesting bomb', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'invalid_json'],
    [
      'invalid UTF-8',
      Buffer.concat([Buffer.from('{"a": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
      'invalid_json',
    ],
    ['two values', '{} {}', 'invalid_json'],
  ])('refuses %s at complete and keeps no bytes', async (_name, body, code) => {
    const grant = await grantFor();
    expect((await put(grant, body)).status).toBe(200);
    const envelope = await expectEnvelope(await complete(grant.id), 400);
    expect(envelope.code).toBe(code);
    expect(envelope.detail).toMatch(/line \d+, column \d+/);
    await noBytes(grant.id);
  });

  it('stops an upload over the limit (while receiving, or at complete on S3) and keeps nothing', async () => {
    const grant = await grantFor();
    const big = JSON.stringify({ pad: 'x'.repeat(MAX_BYTES) });
    const res = await put(grant, big);
    if (store === 'local') {
      expect(res.status).toBe(413);
      expect(await app.container.blobs.head(keysOf(grant.id).upload)).toBeNull();
      expect((await expectEnvelope(await complete(grant.id), 404)).code).toBe('upload_not_found');
    } else {
      expect(res.status).toBe(200); // S3 cannot bind a size range to a PUT URL: complete refuses it
      expect((await expectEnvelope(await complete(grant.id), 400)).code).toBe('file_too_large');
    }
    await noBytes(grant.id);
  });

  it.each([
    ['curl --data-binary', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type', {}],
    ['octet-stream', { 'content-type': 'application/octet-stream' }],
  ])('accepts a PUT declaring %s; complete checks the bytes', async (_name, headers) => {
    const grant = await grantFor('batch');
    const body = JSON.stringify([{ custom_id: 'a', url: 'https://example.com/' }]);
    expect((await put(grant, body, headers)).status).toBe(200);
    expect(await (await complete(grant.id)).json()).toMatchObject({ status: 'completed', items_count: 1 });
  });

  it('completes once when two completes race', async () => {
    const grant = await grantFor('batch');
    const body = JSON.stringify(
      Array.from({ length: 500 }, (_, i) => ({ custom_id: `r${i}`, url: `https://e.com/${i}` })),
    );
    expect((await put(grant, body)).status).toBe(200);
    const results = await Promise.all([complete(grant.id), complete(grant.id), complete(grant.id)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400]);
    for (const res of results.filter((r) => r.status === 400)) {
      expect((await expectEnvelope(res)).code).toBe('file_already_completed');
    }
    const file = (await (await get(`/v1/files/${grant.id}`)).json()) as Json;
    expect(file).toMatchObject({ status: 'completed', items_count: 500, bytes: body.length });
    expect((await app.container.blobs.get(keysOf(grant.id).content))?.toString()).toBe(body);
  });

  it('answers 404 to complete before upload and 400 to a second complete', async () => {
    const grant = await grantFor();
    expect((await expectEnvelope(await complete(grant.id), 404)).code).toBe('upload_not_found');
    expect((await (await get(`/v1/files/${grant.id}`)).json()) as Json).toMatchObject({ status: 'pending' });
    expect((await put(grant, '[1,2,3]')).status).toBe(200);
    expect((await complete(grant.id)).status).toBe(200);
    expect((await expectEnvelope(await complete(grant.id), 400)).code).toBe('file_already_completed');
    expect((await get(`/v1/files/${grant.id}/content`)).status).toBe(200);
  });

  it("refuses tampered URLs, another file's signature and reuse; a reused S3 URL cannot change the file", async () => {
    const mine = await grantFor();
    const theirs = await grantFor();
    const mineUrl = new URL(mine.upload_url);
    const borrowed = new URL(theirs.upload_url);
    borrowed.pathname = mineUrl.pathname; // their signature on my file's path
    const flipped = new URL(mineUrl);
    const [sigName, sig] = [...flipped.searchParams].find(([n]) => n === 'sig' || n === 'X-Amz-Signature')!;
    flipped.searchParams.set(sigName, sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0'));
    for (const url of [borrowed, flipped]) {
      const res = await fetch(url, { method: 'PUT', headers: mine.upload_headers, body: '{"evil":true}' });
      expect(res.status, url.href).toBe(403);
    }
    await noBytes(mine.id);
    await noBytes(theirs.id);

    expect((await put(mine, '{"v":1}')).status).toBe(200);
    const reused = await put(mine, '{"v":2}');
    if (store === 'local') {
      expect((await expectEnvelope(reused, 403)).code).toBe('signed_url_used');
    } else {
      expect(reused.status).toBe(200); // S3 has no single-use URLs
    }
    expect((await complete(mine.id)).status).toBe(200);
    const after = await put(mine, '{"v":3}');
    if (store === 'local') expect(after.status).toBe(403);
    const download = (await (await get(`/v1/files/${mine.id}/content`)).json()) as Json;
    const text = await (await fetch(download.download_url)).text();
    expect(['{"v":1}', '{"v":2}']).toContain(text); // never what came after complete
    if (store === 'local') expect(text).toBe('{"v":1}');
  });

  it('keeps teams apart: another team cannot see, complete, download or delete a file', async () => {
    const grant = await grantFor();
    expect((await put(grant, '{}')).status).toBe(200);
    const other = await app.otherTeam();
    expect((await expectEnvelope(await complete(grant.id, other.key), 404)).code).toBe('file_not_found');
    for (const [method, path] of [
      ['GET', `/v1/files/${grant.id}`],
      ['GET', `/v1/files/${grant.id}/content`],
      ['DELETE', `/v1/files/${grant.id}`],
    ] as const) {
      const res = await app.request(path, { method, key: other.key });
      expect((await expectEnvelope(res, 404)).code).toBe('file_not_found');
    }
    const list = (await (await app.request('/v1/files', { key: other.key })).json()) as Json;
    expect(list.data).toEqual([]);
    expect((await complete(grant.id)).status).toBe(200); // still there for its own team
  });

  it.each([
    ['a name not ending in .json', { filename: 'data.txt', purpose: 'context' }, 'filename'],
    ['an empty name', { filename: '', purpose: 'context' }, 'filename'],
    ['a path', { filename: '../etc/data.json', purpose: 'context' }, 'filename'],
    ['a Windows path', { filename: 'C:\\data.json', purpose: 'context' }, 'filename'],
    ['a 1,000-character name', { filename: `${'a'.repeat(995)}.json`, purpose: 'context' }, 'filename'],
    ['just the extension', { filename: '.json', purpose: 'context' }, 'filename'],
    ['an unknown purpose', { filename: 'data.json', purpose: 'fine-tune' }, 'purpose'],
    ['no purpose', { filename: 'data.json' }, 'purpose'],
    ['no filename', { purpose: 'batch' }, 'filename'],
    ['an unknown field', { filename: 'data.json', purpose: 'batch', size: 3 }, 'size'],
  ])('refuses %s and creates nothing', async (_name, body, field) => {
    const before = ((await (await get('/v1/files?limit=100')).json()) as Json).data.length;
    const envelope = await expectEnvelope(await create(body), 400);
    expect(envelope.code).toBe('validation_error');
    expect(envelope.detail).toContain(field);
    expect(((await (await get('/v1/files?limit=100')).json()) as Json).data.length).toBe(before);
  });

  it('lists files newest first, filtered by purpose, in pages', async () => {
    const fresh = await app.otherTeam();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await create({ filename: `f${i}.json`, purpose: i % 2 ? 'batch' : 'context' }, fresh.key);
      ids.push(((await res.json()) as Json).id);
    }
    const page = async (query: string) =>
      (await (await app.request(`/v1/files${query}`, { key: fresh.key })).json()) as Json;
    const first = await page('?limit=2');
    expect(first).toMatchObject({ object: 'list', has_more: true, cursor: 2 });
    expect(first.data.map((f: Json) => f.id)).toEqual([ids[4], ids[3]]);
    const rest = await page(`?limit=2&cursor=${first.cursor}`);
    const last = await page(`?limit=2&cursor=${rest.cursor}`);
    expect(last).toMatchObject({ has_more: false });
    expect(last.cursor).toBeUndefined();
    expect([...first.data, ...rest.data, ...last.data].map((f: Json) => f.id)).toEqual([...ids].reverse());
    const batches = await page('?purpose=batch');
    expect(batches.data.map((f: Json) => f.id)).toEqual([ids[3], ids[1]]);
    expect((await expectEnvelope(await app.request('/v1/files?purpose=x', { key: fresh.key }), 400)).code).toBe(
      'validation_error',
    );
  });

  it('serves the same operations over GraphQL', async () => {
    const gql = (query: string, variables: Record<string, unknown> = {}) => graphql(app.url, app.key, query, variables);
    const created = await gql(
      `mutation($input: CreateFileUploadInput!) { createFileUpload(input: $input) { id uploadUrl uploadHeaders expiresIn purpose } }`,
      { input: { filename: 'g.json', purpose: 'batch' } },
    );
    const grant = created.data!.createFileUpload as Json;
    expect(grant).toMatchObject({ expiresIn: 600, purpose: 'batch' });
    const body = JSON.stringify([{ custom_id: 'g', url: 'https://example.com/' }]);
    expect((await fetch(grant.uploadUrl, { method: 'PUT', headers: grant.uploadHeaders, body })).status).toBe(200);
    const done = await gql(`mutation($id: ID!) { completeFile(id: $id) { id status bytes itemsCount downloadUrl } }`, {
      id: grant.id,
    });
    expect(done.data!.completeFile).toMatchObject({ status: 'completed', bytes: body.length, itemsCount: 1 });
    expect(await (await fetch((done.data!.completeFile as Json).downloadUrl)).text()).toBe(body);
    const listed = await gql(`{ files(purpose: "batch", limit: 100) { id } file(id: "${grant.id}") { filename } }`);
    expect(listed.data!.files).toContainEqual({ id: grant.id });
    expect(listed.data!.file).toEqual({ filename: 'g.json' });
    const again = await gql(`mutation($id: ID!) { completeFile(id: $id) { id } }`, { id: grant.id });
    expect(again.errors![0]!.extensions).toMatchObject({ code: 'file_already_completed' });
    const bad = await gql(`mutation { createFileUpload(input: {filename: "x.txt", purpose: "batch"}) { id } }`);
    expect(bad.errors![0]!.extensions).toMatchObject({ code: 'validation_error' });
    const deleted = await gql(`mutation($id: ID!) { deleteFile(id: $id) { id deleted } }`, { id: grant.id });
    expect(deleted.data!.deleteFile).toEqual({ id: grant.id, deleted: true });
    const gone = await gql(`mutation($id: ID!) { deleteFile(id: $id) { id } }`, { id: grant.id });
    expect(gone.errors![0]!.extensions).toMatchObject({ code: 'file_not_found' });
    await noBytes(grant.id);
  });

  it('reads a completed context file as text for answers, and refuses other files', async () => {
    const content = '{"about": "Grüße"}';
    const { grant } = await uploadAndComplete(`\uFEFF${content}`);
    const actor = { teamId: app.teamId } as never;
    expect(await app.container.services.files.readContextText(actor, grant.id)).toBe(content);
    await expect(app.container.services.files.readContextText(actor, grant.id, { maxBytes: 10 })).rejects.toMatchObject(
      {
        code: 'file_too_large',
      },
    );
    const pending = await grantFor();
    await expect(app.container.services.files.readContextText(actor, pending.id)).rejects.toMatchObject({
      code: 'file_not_completed',
    });
    const batch = await uploadAndComplete('[{"custom_id":"a","url":"https://example.com/"}]', 'batch');
    await expect(app.container.services.files.readContextText(actor, batch.grant.id)).rejects.toMatchObject({
      code: 'invalid_file_purpose',
    });
    const use = { purpose: 'context', maxBytes: 10, field: 'context_file_ids' } as const;
    await expect(app.container.services.files.usable(actor, batch.grant.id, use)).rejects.toMatchObject({
      code: 'invalid_file_purpose',
      detail: expect.stringMatching(/^context_file_ids: file /),
    });
    await expect(app.container.services.files.usable(actor, grant.id, use)).rejects.toMatchObject({
      code: 'file_too_large',
      metadata: { max_bytes: '10' },
    });
    expect(await app.container.services.files.usable(actor, grant.id, { purpose: 'context' })).toMatchObject({
      id: grant.id,
      status: 'completed',
    });
  });

  // Last: maintenance a little in the future also removes the pending files of the tests above.
  it('maintenance removes an upload object a reused URL left after complete; the content stays', async () => {
    const grant = await grantFor();
    expect((await put(grant, '{"v":1}')).status).toBe(200);
    expect((await complete(grant.id)).status).toBe(200);
    const reused = await put(grant, '{"v":2}');
    expect(reused.status).toBe(store === 'local' ? 403 : 200);
    if (store === 's3') expect(await app.container.blobs.head(keysOf(grant.id).upload)).not.toBeNull();
    const [task] = app.container.modules.maintenance().filter((t) => t.module === 'files');
    const report = await task!.task(new Date(Date.now() + 601_000));
    expect(report.file_uploads_swept).toBeGreaterThanOrEqual(1);
    expect(await app.container.blobs.head(keysOf(grant.id).upload)).toBeNull();
    expect((await app.container.blobs.get(keysOf(grant.id).content))?.toString()).toBe('{"v":1}');
    expect((await get(`/v1/files/${grant.id}`)).status).toBe(200);
  });
});
