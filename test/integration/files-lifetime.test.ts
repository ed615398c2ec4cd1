import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKeys } from '../../src/domain/files/file-keys.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { expectEnvelope } from '../support/envelope.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Upload URLs that expire after 2 s, so expiry is seen without waiting ten minutes. */
const TTL_S = 2;
const DAY_MS = 86_400_000;

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({
    config: {
      files: { maxBytes: 1024 * 1024, uploadExpiresSeconds: TTL_S, downloadExpiresSeconds: 300, retentionDays: 30 },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
});

const grantFor = async (): Promise<Json> =>
  (await (
    await app.request('/v1/files', { method: 'POST', json: { filename: 'f.json', purpose: 'context' } })
  ).json()) as Json;
const put = (grant: Json, body: string) =>
  fetch(grant.upload_url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body });
const complete = (id: string) => app.request(`/v1/files/${id}/complete`, { method: 'POST' });
const status = async (id: string) => (await app.request(`/v1/files/${id}`)).status;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The files module's part of the hourly maintenance round, as the maintenance job runs it. */
const maintain = async (now: Date) => {
  const tasks = app.container.modules.maintenance().filter((t) => t.module === 'files');
  expect(tasks).toHaveLength(1);
  return tasks[0]!.task(now);
};
const bytesOf = (id: string) =>
  Promise.all(
    [fileKeys(app.teamId, id).upload, fileKeys(app.teamId, id).content].map((k) => app.container.blobs.head(k)),
  );

describe('file lifetime', () => {
  it('refuses a PUT after the URL expired, keeps nothing, and maintenance deletes the pending file', async () => {
    const late = await grantFor();
    const early = await grantFor();
    expect(late.expires_in).toBe(TTL_S);
    expect((await put(early, '{"in":"time"}')).status).toBe(200);
    await sleep((TTL_S + 1.2) * 1000);
    const refused = await put(late, '{"too":"late"}');
    expect((await expectEnvelope(refused, 403)).code).toBe('signed_url_expired');
    expect(await bytesOf(late.id)).toEqual([null, null]);

    // Uploaded in time, completed after the URL expired: still fine (the bytes came in time).
    expect((await complete(early.id)).status).toBe(200);

    const report = await maintain(new Date());
    expect(report.files_expired).toBeGreaterThanOrEqual(1);
    expect(await status(late.id)).toBe(404);
    expect(await status(early.id)).toBe(200);
  });

  it('deletes completed files past the retention with their bytes; younger ones stay', async () => {
    const grant = await grantFor();
    expect((await put(grant, '[1]')).status).toBe(200);
    expect((await complete(grant.id)).status).toBe(200);
    const download = (await (await app.request(`/v1/files/${grant.id}/content`)).json()) as Json;
    expect((await fetch(download.download_url)).status).toBe(200);

    await maintain(new Date(Date.now() + 29 * DAY_MS));
    expect(await status(grant.id)).toBe(200);

    const report = await maintain(new Date(Date.now() + 31 * DAY_MS));
    expect(report.files_retained).toBeGreaterThanOrEqual(1);
    expect(await status(grant.id)).toBe(404);
    expect(await bytesOf(grant.id)).toEqual([null, null]);
    expect((await fetch(download.download_url)).status).toBe(404);
  });

  it('removes what a PUT through a deleted file’s still-valid URL wrote, once the URL expired', async () => {
    const grant = await grantFor();
    const deleted = await app.request(`/v1/files/${grant.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await status(grant.id)).toBe(404);
    expect((await app.request(`/v1/files/${grant.id}`, { method: 'DELETE' })).status).toBe(404);
    const list = (await (await app.request('/v1/files?limit=100')).json()) as Json;
    expect(list.data.map((f: Json) => f.id)).not.toContain(grant.id);
    // The URL still works until it expires: the bytes land, but belong to no file.
    expect((await put(grant, '{"late":1}')).status).toBe(200);
    expect((await complete(grant.id)).status).toBe(404);
    expect((await bytesOf(grant.id))[0]).not.toBeNull();
    await maintain(new Date(Date.now() + (TTL_S + 1) * 1000));
    expect(await bytesOf(grant.id)).toEqual([null, null]);
  });

  it('maintenance also deletes files refused at complete once their URL expired', async () => {
    const grant = await grantFor();
    expect((await put(grant, '{oops')).status).toBe(200);
    expect((await expectEnvelope(await complete(grant.id), 400)).code).toBe('invalid_json');
    expect(((await (await app.request(`/v1/files/${grant.id}`)).json()) as Json).status).toBe('failed');
    await maintain(new Date(Date.now() + (TTL_S + 1) * 1000));
    expect(await status(grant.id)).toBe(404);
  });
});
