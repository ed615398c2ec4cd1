import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { eventually } from '../support/monitor-harness.js';

// Every bad input answers with its status and body ({error, monitor_id} on creation, the
// envelope elsewhere) and creates and schedules nothing. Bodies as SDKs send them (null for
// unset optional fields).

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let site: FixtureServer;
let app: TestApp;

beforeAll(async () => {
  site = await startFixtureServer({ '/': html('<title>Home</title><h1>Home</h1><p>Hello.</p>') });
  app = await startTestApp({
    workers: true,
    config: { outbound: allowLocalPorts(site.port), workers: { leaseMs: 10_000, retryBaseMs: 100 } },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
});

const conn = () => app.container.db.orm.em.fork().getConnection();
async function counts(): Promise<{ monitors: number; jobs: number }> {
  const [m] = await conn().execute<{ n: string }[]>(`select count(*) as n from monitors`);
  const [j] = await conn().execute<{ n: string }[]>(`select count(*) as n from jobs where kind like 'monitor.%'`);
  return { monitors: Number(m!.n), jobs: Number(j!.n) };
}

const SDK_NULLS = {
  source_policy: null,
  frequency: null,
  notification: null,
  webhook: null,
  metadata: null,
  output_schema: null,
};

describe('creation refuses bad input with {error, monitor_id} and creates nothing', () => {
  const page = () => site.url('/');
  const cases: [string, () => Json, number, RegExp][] = [
    ['query missing', () => ({}), 400, /^query: is required/],
    ['query empty', () => ({ query: '' }), 400, /^query: must not be empty/],
    ['query blank', () => ({ query: '   \n ' }), 400, /^query: must not be empty/],
    ['query of 100 KB', () => ({ query: `watch ${page()} `.padEnd(100_000, 'x') }), 400, /^query: is longer than 4000/],
    ['query not a string', () => ({ query: 42 }), 400, /^query: must be a string/],
    ['query naming nothing to watch', () => ({ query: 'please tell me' }), 400, /^query: says nothing to monitor/],
    ['query with a private URL', () => ({ query: 'Watch http://10.1.2.3/admin' }), 403, /^query: http:\/\/10\.1\.2\.3/],
    ['query with the metadata host', () => ({ query: 'Watch http://169.254.169.254/' }), 403, /^query: /],
    [
      'frequency under 10 minutes',
      () => ({ query: `Watch ${page()}`, frequency: 'every 5 minutes' }),
      400,
      /^frequency: .*at least 10 minutes/,
    ],
    ['frequency every minute', () => ({ query: `Watch ${page()}`, frequency: 'every minute' }), 400, /^frequency: /],
    [
      'frequency unparseable',
      () => ({ query: `Watch ${page()}`, frequency: 'whenever the moon is full' }),
      400,
      /^frequency: not understood/,
    ],
    [
      'frequency not a string',
      () => ({ query: `Watch ${page()}`, frequency: 15 }),
      400,
      /^frequency: must be a string/,
    ],
    ['frequency empty', () => ({ query: `Watch ${page()}`, frequency: '' }), 400, /^frequency: /],
    [
      'source_policy member not an array',
      () => ({ query: `Watch ${page()}`, source_policy: { include_urls: 'https://a.example/' } }),
      400,
      /^source_policy\.include_urls: must be an array/,
    ],
    [
      'source_policy entry not a string',
      () => ({ query: `Watch ${page()}`, source_policy: { exclude_domains: [7] } }),
      400,
      /^source_policy\.exclude_domains\[0\]: must be a string/,
    ],
    [
      'source_policy unknown list',
      () => ({ query: `Watch ${page()}`, source_policy: { allow: [] } }),
      400,
      /^source_policy\.allow: unknown field/,
    ],
    [
      'source_policy with a private address',
      () => ({ query: `Watch ${page()}`, source_policy: { include_domains: ['192.168.0.10'] } }),
      403,
      /^source_policy\.include_domains\[0\]: /,
    ],
    [
      'source_policy with the metadata address',
      () => ({ query: `Watch ${page()}`, source_policy: { include_urls: ['http://169.254.169.254/latest'] } }),
      403,
      /^source_policy\.include_urls\[0\]: /,
    ],
    [
      'every named URL excluded by the policy',
      () => ({ query: `Watch ${page()}`, source_policy: { exclude_domains: ['127.0.0.1'] } }),
      400,
      /^query: every URL or domain it names is outside source_policy/,
    ],
    [
      'unknown notification event',
      () => ({ query: `Watch ${page()}`, notification: { events: ['changd'] } }),
      400,
      /^notification\.events\[0\]: must be one of changed, first_snapshot, run_failed/,
    ],
    [
      'unknown channel event',
      () => ({
        query: `Watch ${page()}`,
        notification: { channels: [{ target: 'https://hooks.example.com/x', events: ['deleted'] }] },
      }),
      400,
      /^notification\.channels\[0\]\.events\[0\]: must be one of/,
    ],
    [
      'channel webhook not http(s)',
      () => ({ query: `Watch ${page()}`, notification: { channels: [{ target: 'ftp://files.example.com/hook' }] } }),
      400,
      /^notification\.channels\[0\]\.target: /,
    ],
    [
      'channel webhook plain http',
      () => ({ query: `Watch ${page()}`, notification: { channels: [{ target: 'http://hooks.example.com/x' }] } }),
      400,
      /^notification\.channels\[0\]\.target: must be an https URL/,
    ],
    [
      'channel webhook private',
      () => ({ query: `Watch ${page()}`, notification: { channels: [{ target: 'https://10.0.0.5/hook' }] } }),
      403,
      /^notification\.channels\[0\]\.target: /,
    ],
    [
      'malformed email address',
      () => ({ query: `Watch ${page()}`, notification: { channels: [{ target: 'mailto:someone@' }] } }),
      400,
      /^notification\.channels\[0\]\.target: "mailto:someone@" is not an email address/,
    ],
    [
      'email without SMTP configured',
      () => ({ query: `Watch ${page()}`, notification: { channels: [{ target: 'ops@example.com' }] } }),
      400,
      /needs an SMTP server|need an SMTP server/,
    ],
    [
      'webhook private',
      () => ({ query: `Watch ${page()}`, webhook: { url: 'https://192.168.1.1/hook' } }),
      403,
      /^webhook\.url: /,
    ],
    ['webhook not a URL', () => ({ query: `Watch ${page()}`, webhook: 'not a url' }), 400, /^webhook: /],
    [
      'output_schema a string',
      () => ({ query: `Watch ${page()}`, output_schema: 'price' }),
      400,
      /^output_schema: must be a JSON Schema object/,
    ],
    [
      'output_schema an array',
      () => ({ query: `Watch ${page()}`, output_schema: [] }),
      400,
      /^output_schema: must be a JSON Schema object/,
    ],
    [
      'output_schema not a valid JSON Schema',
      () => ({ query: `Watch ${page()}`, output_schema: { type: 'thing' } }),
      400,
      /^output_schema/,
    ],
    [
      'detection with an unknown noise filter',
      () => ({ query: `Watch ${page()}`, detection: { noise_filters: { datez: true } } }),
      400,
      /^detection\.noise_filters\.datez: unknown noise filter/,
    ],
    [
      'metadata value not a string',
      () => ({ query: `Watch ${page()}`, metadata: { a: 1 } }),
      400,
      /^metadata\.a: must be a string/,
    ],
    ['an unknown top-level field', () => ({ query: `Watch ${page()}`, frequncy: 'every hour' }), 400, /frequncy/],
  ];

  it.each(cases)('%s', async (_name, body, status, detail) => {
    const before = await counts();
    const res = await app.request('/v1/monitors', { method: 'POST', json: { ...SDK_NULLS, ...body() } });
    const answer = (await res.json()) as Json;
    expect({ status: res.status, error: answer.error }).toMatchObject({ status, error: expect.stringMatching(detail) });
    expect(Object.keys(answer).sort()).toEqual(['error', 'monitor_id']);
    expect(answer.monitor_id).toBe('');
    expect(await counts()).toEqual(before);
  });

  it('a web query without SearXNG is planned over the stored pages search (not refused)', async () => {
    const res = await app.request('/v1/monitors', {
      method: 'POST',
      json: { ...SDK_NULLS, query: 'new kettle models from big brands' },
    });
    expect(res.status).toBe(202);
    const monitor = (await res.json()) as Json;
    expect(monitor.tracked.web_query).toMatch(/kettle/);
  });

  it('answers malformed JSON with the same body', async () => {
    const res = await app.request('/v1/monitors', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(res.status).toBe(400);
    expect(Object.keys((await res.json()) as Json).sort()).toEqual(['error', 'monitor_id']);
  });

  it('keeps the envelope for a missing credential', async () => {
    await expectEnvelope(await app.request('/v1/monitors', { method: 'POST', json: { query: 'x' }, key: null }), 401);
  });
});

describe('GraphQL', () => {
  it('creates a monitor with the same validation as REST', async () => {
    const mutation = `mutation($input: CreateMonitorInput!) { createMonitor(input: $input) { id status schedule { frequency cron } tracked { urls } } }`;
    const bad = await graphql(app.url, app.key, mutation, {
      input: { query: `Watch ${site.url('/')}`, frequency: 'every 5 minutes' },
    });
    expect(bad.errors?.[0]?.message).toMatch(/frequency: .*at least 10 minutes/);
    const before = await counts();
    const good = await graphql(app.url, app.key, mutation, {
      input: { query: `Watch ${site.url('/')}`, frequency: 'every 20 minutes' },
    });
    expect(good.errors).toBeUndefined();
    expect((good.data as Json).createMonitor).toMatchObject({
      status: 'provisioning',
      schedule: { frequency: 'every 20 minutes', cron: '0/20 * * * ? *' },
      tracked: { urls: [site.url('/')] },
    });
    expect((await counts()).monitors).toBe(before.monitors + 1);
  });
});

describe('changing a monitor', () => {
  let id: string;

  beforeAll(async () => {
    const res = await app.request('/v1/monitors', {
      method: 'POST',
      json: { ...SDK_NULLS, query: `Watch ${site.url('/')}`, metadata: { owner: 'ana', team: 'web' } },
    });
    id = ((await res.json()) as Json).id as string;
    await eventually(
      async () => (await (await app.request(`/v1/monitors/${id}`)).json()) as Json,
      (m) => m.status === 'active',
    );
  });

  const post = (path: string, json?: unknown) => app.request(path, { method: 'POST', ...(json ? { json } : {}) });

  it('merges metadata ("" deletes a key) and reschedules on a new frequency', async () => {
    const res = await post(`/v1/monitors/${id}`, {
      metadata: { owner: '', env: 'prod' },
      frequency: 'every 2 hours',
      notification: null,
      webhook: null,
    });
    expect(res.status).toBe(200);
    const monitor = (await res.json()) as Json;
    expect(monitor.metadata).toEqual({ team: 'web', env: 'prod' });
    expect(monitor.schedule).toMatchObject({ frequency: 'every 2 hours', cron: '0 0/2 * * ? *' });
    expect(new Date(monitor.schedule.next_run_at).getUTCMinutes()).toBe(0);
    expect(monitor.mermaid_diagram).toContain('Every 2 hours');
    // The new due time is queued once, under its unique key (monitor, due time).
    const jobs = await conn().execute<{ id: string; run_at: Date; concurrency_key: string }[]>(
      `select id, run_at, concurrency_key from jobs where kind = 'monitor.run' and status = 'queued' and id like ?`,
      [`${id}@%`],
    );
    const due = jobs.find((j) => j.id === `${id}@${monitor.schedule.next_run_at}`);
    expect(due).toMatchObject({ concurrency_key: id });
    expect(new Date(due!.run_at).toISOString()).toBe(monitor.schedule.next_run_at);
  });

  it('runs at its due time once, and queues the next due time in the same step', async () => {
    // The due time is brought forward to now, as the scheduler would find it once time passed.
    const due = new Date(Date.now() + 500);
    const iso = due.toISOString();
    const [m] = await conn().execute<{ team_id: string }[]>(`select team_id from monitors where id = ?`, [id]);
    await conn().execute(`delete from jobs where kind = 'monitor.run' and status = 'queued' and concurrency_key = ?`, [
      id,
    ]);
    await conn().execute(`update monitors set next_run_at = ? where id = ?`, [due, id]);
    const job = {
      id: `${id}@${iso}`,
      kind: 'monitor.run',
      teamId: m!.team_id,
      runAt: due,
      concurrencyKey: id,
      payload: { monitorId: id, trigger: 'schedule', due: iso },
    };
    // Queued twice (two processes would): one job.
    await app.container.queue.enqueue([job]);
    await app.container.queue.enqueue([job]);
    const run = await eventually(
      () =>
        conn().execute<{ id: string; trigger: string; status: string }[]>(
          `select id, trigger, status from monitor_runs where monitor_id = ? and scheduled_for = ?`,
          [id, due],
        ),
      (rows) => rows.length > 0 && rows.every((r) => r.status === 'completed'),
    );
    expect(run).toHaveLength(1);
    expect(run[0]!.trigger).toBe('schedule');
    const monitor = (await (await app.request(`/v1/monitors/${id}`)).json()) as Json;
    expect(monitor.last_run.id).toBe(run[0]!.id);
    expect(Date.parse(monitor.schedule.next_run_at)).toBeGreaterThan(Date.now());
    const queued = await conn().execute<{ id: string }[]>(
      `select id from jobs where kind = 'monitor.run' and status = 'queued' and concurrency_key = ?`,
      [id],
    );
    expect(queued.map((j) => j.id)).toEqual([`${id}@${monitor.schedule.next_run_at}`]);
  });

  it('refuses a frequency under 10 minutes on update, changing nothing', async () => {
    const before = (await (await app.request(`/v1/monitors/${id}`)).json()) as Json;
    const envelope = await expectEnvelope(await post(`/v1/monitors/${id}`, { frequency: 'every 2 minutes' }), 400);
    expect(envelope.detail).toMatch(/^frequency: /);
    const after = (await (await app.request(`/v1/monitors/${id}`)).json()) as Json;
    expect(after.schedule).toEqual(before.schedule);
  });

  it('pauses once (a second pause is a 409) and resumes with a fresh due time', async () => {
    const paused = (await (await post(`/v1/monitors/${id}/pause`)).json()) as Json;
    expect(paused).toMatchObject({ status: 'paused', schedule: { next_run_at: null } });
    const again = await expectEnvelope(await post(`/v1/monitors/${id}/pause`), 409);
    expect(again.code).toBe('monitor_not_active');
    const resumed = (await (await post(`/v1/monitors/${id}/resume`)).json()) as Json;
    expect(resumed.status).toBe('active');
    expect(Date.parse(resumed.schedule.next_run_at)).toBeGreaterThan(Date.now());
    expect((await expectEnvelope(await post(`/v1/monitors/${id}/resume`), 409)).code).toBe('monitor_not_paused');
  });

  it('counts events and refuses a cursor it did not issue', async () => {
    const counted = (await (await app.request(`/v1/monitors/${id}/events?count_only=true`)).json()) as Json;
    expect(counted).toEqual({ data: [], has_more: false, next_cursor: null, total_count: 1 });
    await expectEnvelope(await app.request(`/v1/monitors/${id}/events?cursor=nope`), 400);
    await expectEnvelope(await app.request(`/v1/monitors/${id}/events?limit=0`), 400);
  });

  it('hides the monitor from another team (404 everywhere)', async () => {
    const other = await app.otherTeam();
    const as = { key: other.key };
    for (const [method, path] of [
      ['GET', `/v1/monitors/${id}`],
      ['POST', `/v1/monitors/${id}/pause`],
      ['POST', `/v1/monitors/${id}/runs`],
      ['GET', `/v1/monitors/${id}/events`],
      ['DELETE', `/v1/monitors/${id}`],
    ] as const) {
      const envelope = await expectEnvelope(await app.request(path, { method, ...as }), 404);
      expect(envelope.code).toBe('monitor_not_found');
    }
    const update = await app.request(`/v1/monitors/${id}`, { method: 'POST', json: { metadata: { x: 'y' } }, ...as });
    await expectEnvelope(update, 404);
    expect(((await (await app.request('/v1/monitors', as)).json()) as Json).data).toEqual([]);
  });

  it('deletes, then the monitor is gone: update, pause and runs answer 404', async () => {
    const deleted = (await (await app.request(`/v1/monitors/${id}`, { method: 'DELETE' })).json()) as Json;
    expect(deleted).toMatchObject({ id, status: 'deleted' });
    await expectEnvelope(await post(`/v1/monitors/${id}`, { metadata: { a: 'b' } }), 404);
    await expectEnvelope(await post(`/v1/monitors/${id}/pause`), 404);
    await expectEnvelope(await post(`/v1/monitors/${id}/runs`), 404);
    await expectEnvelope(
      await app.request(`/v1/monitors/${id}`, { headers: { 'content-type': 'application/json' } }),
      404,
    );
    const list = (await (await app.request('/v1/monitors')).json()) as Json;
    expect(list.data.map((m: Json) => m.id)).not.toContain(id);

    // A day later, maintenance removes its rows and its objects.
    const { blobs } = app.container;
    const [row] = await conn().execute<{ team_id: string }[]>(`select team_id from monitors where id = ?`, [id]);
    const prefix = `monitors/${row!.team_id}/${id}/`;
    const [page] = await conn().execute<{ snapshot_key: string }[]>(
      `select snapshot_key from monitor_pages where monitor_id = ?`,
      [id],
    );
    expect(page!.snapshot_key.startsWith(prefix)).toBe(true);
    expect(await blobs.head(page!.snapshot_key)).not.toBeNull();
    const tasks = app.container.modules.maintenance().filter((t) => t.module === 'monitors');
    for (const { task } of tasks) await task(new Date(Date.now() + 2 * 86_400_000));
    expect(await conn().execute(`select id from monitors where id = ?`, [id])).toEqual([]);
    expect(await conn().execute(`select 1 from monitor_events where monitor_id = ?`, [id])).toEqual([]);
    expect(await blobs.head(page!.snapshot_key)).toBeNull();
  });
});
