import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope } from '../support/envelope.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { collect, wsClient } from '../support/graphql-ws.js';

// Pausing, resuming and updating schedules against a real service with its workers (a local
// site records the calls), and the next due times of schedules and of timings not saved.

let app: TestApp;
let site: FixtureServer;
const calls: { path: string; body: string }[] = [];
const held: (() => void)[] = [];

beforeAll(async () => {
  const record = (req: IncomingMessage, done: () => void) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push({ path: req.url ?? '', body });
      done();
    });
  };
  site = await startFixtureServer({
    '/hook/*': (req, res) => record(req, () => res.writeHead(200).end('ok')),
    // Answers only when the test lets it go.
    '/held/*': (req, res) => record(req, () => held.push(() => res.writeHead(200).end('ok'))),
  });
  app = await startTestApp({ workers: true, config: { outbound: allowLocalPorts(site.port) } });
}, 120_000);

afterAll(async () => {
  for (const release of held) release();
  await app?.close();
  await site?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
const url = (path: string) => site.url(path);

async function create(body: unknown): Promise<Json> {
  const res = await app.request('/v1/schedules', { method: 'POST', json: body });
  const json = (await res.json()) as Json;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}
const call = async (method: string, path: string, json?: unknown, key?: string) => {
  const res = await app.request(path, { method, json, key });
  return { status: res.status, body: (await res.json()) as Json, res };
};
const change = async (id: string, action: 'pause' | 'resume') => {
  const { status, body } = await call('POST', `/v1/schedules/${id}/${action}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.schedule as Json;
};
const patch = async (id: string, json: unknown) => {
  const { status, body } = await call('PATCH', `/v1/schedules/${id}`, json);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.schedule as Json;
};
const get = async (id: string) => ((await call('GET', `/v1/schedules/${id}`)).body as Json).schedule as Json;
const runsOf = async (id: string) => ((await call('GET', `/v1/schedules/${id}/runs`)).body as Json).data as Json[];
const queuedJobs = async (id: string) =>
  (
    (await app.container.db.orm.em
      .fork()
      .getConnection()
      .execute(`select id from jobs where id like ? and status = 'queued' order by id`, [`${id}:%`])) as Json[]
  ).map((r) => r.id as string);

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('pause and resume', () => {
  it('a paused schedule does not fire at its due time, and resuming does not catch it up', async () => {
    const due = inSeconds(3);
    const paused = await create({ method: 'GET', endpoint: url('/hook/paused'), execute_at: due });
    const witness = await create({ method: 'GET', endpoint: url('/hook/witness'), execute_at: due });
    const after = await change(paused.id, 'pause');
    expect(after).toMatchObject({ id: paused.id, state: 'PAUSED', next_run_at: null, execute_at: due });
    expect(await queuedJobs(paused.id)).toEqual([]);
    // Pausing again changes nothing.
    expect(await change(paused.id, 'pause')).toEqual(after);
    // Listed with the others (only deleted ones are left out).
    const listed = (await call('GET', '/v1/schedules')).body.schedules as Json[];
    expect(listed.find((s) => s.id === paused.id)?.state).toBe('PAUSED');

    // The witness, due at the same time, fires: the due time has passed and workers ran.
    await until('the witness run', async () => (await runsOf(witness.id)).find((r) => r.status === 'succeeded'));
    expect(calls.filter((c) => c.path === '/hook/paused')).toEqual([]);
    expect(await runsOf(paused.id)).toEqual([]);
    expect((await get(paused.id)).state).toBe('PAUSED');

    // Its one due time passed while paused: there is nothing to resume.
    const ended = await expectEnvelope(await app.request(`/v1/schedules/${paused.id}/resume`, { method: 'POST' }), 409);
    expect(ended.code).toBe('schedule_ended');
    expect(ended.detail).toMatch(/passed while it was paused/);

    // A new execute_at while paused keeps it paused; resuming then fires it at that time, once.
    const later = inSeconds(3);
    expect(await patch(paused.id, { execute_at: later })).toMatchObject({ state: 'PAUSED', next_run_at: null });
    const resumed = await change(paused.id, 'resume');
    expect(resumed).toMatchObject({ state: 'ENABLED', next_run_at: later, execute_at: later });
    expect(await change(paused.id, 'resume')).toMatchObject({ state: 'ENABLED', next_run_at: later });
    const [run] = await until('the resumed run', async () => {
      const runs = await runsOf(paused.id);
      return runs.length > 0 && runs[0]!.status !== 'running' ? runs : null;
    });
    expect(run).toMatchObject({ scheduled_for: later, status: 'succeeded', missed_runs: 0 });
    expect(calls.filter((c) => c.path === '/hook/paused')).toHaveLength(1);
  }, 60_000);

  it('pausing a recurring schedule removes its queued firing; resuming queues the next due time after now', async () => {
    const s = await create({
      method: 'GET',
      endpoint: url('/hook/minutely'),
      cron_expression: '* * * * ? *',
      expression_timezone: 'UTC',
    });
    expect(await queuedJobs(s.id)).toEqual([`${s.id}:${s.next_run_at}`]);
    expect(await change(s.id, 'pause')).toMatchObject({ state: 'PAUSED', next_run_at: null });
    expect(await queuedJobs(s.id)).toEqual([]);
    const resumed = await change(s.id, 'resume');
    expect(resumed.state).toBe('ENABLED');
    expect(Date.parse(resumed.next_run_at)).toBeGreaterThan(Date.now() - 1000);
    expect(Date.parse(resumed.next_run_at) % 60_000).toBe(0);
    expect(await queuedJobs(s.id)).toEqual([`${s.id}:${resumed.next_run_at}`]);
    await call('DELETE', `/v1/schedules/${s.id}`);
  });

  it('a run under way when paused finishes and is recorded; the schedule stays paused', async () => {
    const s = await create({ method: 'GET', endpoint: url('/held/under-way'), execute_at: inSeconds(2) });
    await until('the call', async () => held.length === 1);
    expect(await change(s.id, 'pause')).toMatchObject({ state: 'PAUSED' });
    held.shift()!();
    const done = await until('the run recorded', async () => {
      const now = await get(s.id);
      return now.last_run?.status === 'succeeded' ? now : null;
    });
    // Its only due time ran, but a paused schedule is not ended by it.
    expect(done).toMatchObject({ state: 'PAUSED', next_run_at: null });
  }, 30_000);

  it('a GraphQL run subscription to a paused schedule stays open, and follows its runs once resumed', async () => {
    const s = await create({ method: 'GET', endpoint: url('/hook/streamed'), execute_at: inSeconds(600) });
    await change(s.id, 'pause');
    const client = wsClient(app.url, app.key);
    const stream = collect<{ scheduleRuns: { status: string } }>(
      client,
      `subscription { scheduleRuns(id: "${s.id}") { status } }`,
      2,
      30_000,
    );
    await stream.ready;
    await patch(s.id, { execute_at: inSeconds(2) });
    await change(s.id, 'resume');
    expect((await stream.done).map((e) => e.scheduleRuns.status)).toEqual(['running', 'succeeded']);
    await client.dispose();
  }, 40_000);

  it('refuses deleted schedules (409) and other teams’ (404)', async () => {
    const s = await create({ method: 'GET', endpoint: url('/hook/x'), execute_at: inSeconds(600) });
    await call('DELETE', `/v1/schedules/${s.id}`);
    for (const action of ['pause', 'resume']) {
      const res = await app.request(`/v1/schedules/${s.id}/${action}`, { method: 'POST' });
      expect((await expectEnvelope(res, 409)).code).toBe('schedule_deleted');
    }
    const patched = await app.request(`/v1/schedules/${s.id}`, { method: 'PATCH', json: { payload: {} } });
    expect((await expectEnvelope(patched, 409)).code).toBe('schedule_deleted');
    const other = await app.otherTeam();
    const live = await create({ method: 'GET', endpoint: url('/hook/x'), execute_at: inSeconds(600) });
    for (const [method, path] of [
      ['POST', `/v1/schedules/${live.id}/pause`],
      ['POST', `/v1/schedules/${live.id}/resume`],
      ['PATCH', `/v1/schedules/${live.id}`],
      ['GET', `/v1/schedules/${live.id}/next_runs`],
    ] as const) {
      const res = await app.request(path, { method, key: other.key, json: method === 'PATCH' ? {} : undefined });
      expect((await expectEnvelope(res, 404)).code).toBe('schedule_not_found');
    }
    expect((await get(live.id)).state).toBe('ENABLED');
  });
});

describe('PATCH /v1/schedules/{id}', () => {
  it('a new execute_at moves the firing: it runs at the new time, not the old', async () => {
    const s = await create({ method: 'POST', endpoint: url('/hook/moved'), execute_at: inSeconds(600), payload: {} });
    const soon = inSeconds(2);
    // Real clients send null for what they leave unset.
    const moved = await patch(s.id, { execute_at: soon, payload: { v: 2 }, cron_expression: null, text: null });
    expect(moved).toMatchObject({ type: 'onetime', execute_at: soon, next_run_at: soon, payload: { v: 2 } });
    expect(await queuedJobs(s.id)).toEqual([`${s.id}:${soon}`]);
    const [run] = await until('the run', async () => {
      const runs = await runsOf(s.id);
      return runs.length > 0 && runs[0]!.status !== 'running' ? runs : null;
    });
    expect(run).toMatchObject({ scheduled_for: soon, status: 'succeeded' });
    expect(calls.filter((c) => c.path === '/hook/moved').map((c) => JSON.parse(c.body))).toEqual([{ v: 2 }]);
  }, 30_000);

  it('a new cron expression or time zone recomputes the next due time; other fields leave it', async () => {
    const s = await create({ method: 'GET', endpoint: url('/hook/daily'), text: 'every day at 9am' });
    expect(s).toMatchObject({ cron_expression: '0 9 * * ? *', text: 'every day at 9am', expression_timezone: 'UTC' });
    // A time zone alone: the same expression on another wall clock; the text stays.
    const ny = await patch(s.id, { expression_timezone: 'America/New_York' });
    expect(ny).toMatchObject({ cron_expression: '0 9 * * ? *', text: 'every day at 9am' });
    const local = await call('GET', `/v1/schedules/${s.id}/next_runs?count=1`);
    expect(local.body.next_runs[0].local).toMatch(/T09:00:00-0[45]:00$/);
    expect(local.body.next_runs[0].at).toBe(ny.next_run_at);
    expect(await queuedJobs(s.id)).toEqual([`${s.id}:${ny.next_run_at}`]);
    // A new expression replaces the text.
    const weekly = await patch(s.id, { cron_expression: '15 6 ? * MON *' });
    expect(weekly).toMatchObject({
      cron_expression: '15 6 ? * MON *',
      text: null,
      expression_timezone: 'America/New_York',
      type: 'recurring',
    });
    expect(weekly.description).toMatch(/06:15 AM, only on Monday/);
    expect(await queuedJobs(s.id)).toEqual([`${s.id}:${weekly.next_run_at}`]);
    // The endpoint alone: validated as at creation; the due time stays.
    const other = await patch(s.id, { endpoint: url('/hook/elsewhere'), method: 'post', payload: { a: 1 } });
    expect(other).toMatchObject({ method: 'POST', endpoint: url('/hook/elsewhere'), next_run_at: weekly.next_run_at });
    expect(await queuedJobs(s.id)).toEqual([`${s.id}:${weekly.next_run_at}`]);
    await call('DELETE', `/v1/schedules/${s.id}`);
  });

  it('validates as creating does: bad input is the envelope naming the field, and changes nothing', async () => {
    const s = await create({
      method: 'POST',
      endpoint: 'v1/scrapes',
      payload: { url_to_scrape: url('/hook/page') },
      cron_expression: '0 12 * * ? *',
      expression_timezone: 'UTC',
    });
    const cases: [unknown, number, RegExp][] = [
      [
        { cron_expression: '0 12 * * ? *', execute_at: inSeconds(60) },
        400,
        /^execute_at: cannot be combined with cron_expression/,
      ],
      [{ cron_expression: '0 25 * * ? *' }, 400, /^cron_expression: hours: /],
      [{ cron_expression: '0 12 * * *' }, 400, /^cron_expression: needs 6 fields/],
      [
        { expression_timezone: 'Mars/Olympus' },
        400,
        /^expression_timezone: "Mars\/Olympus" is not a known IANA time zone/,
      ],
      [{ execute_at: '2001-01-01T00:00:00Z' }, 400, /^execute_at: .* is not in the future/],
      [{ payload: { url_to_scrape: 'https://a.example', formats: ['nope'] } }, 400, /^payload\.formats/],
      [{ payload: { formats: ['markdown'] } }, 400, /^payload/],
      [{ endpoint: 'v1/nowhere' }, 400, /endpoint/],
      [{ endpoint: 'http://169.254.169.254/latest' }, 403, /169\.254\.169\.254/],
      [{ method: 'DELETE' }, 400, /^method: must be GET or POST/],
      [{ state: 'PAUSED' }, 400, /state/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await app.request(`/v1/schedules/${s.id}`, { method: 'PATCH', json: body });
      const envelope = await expectEnvelope(res, status);
      expect(envelope.detail, JSON.stringify(body)).toMatch(detail);
    }
    expect(await get(s.id)).toEqual(s);
    expect(await queuedJobs(s.id)).toEqual([`${s.id}:${s.next_run_at}`]);
    await call('DELETE', `/v1/schedules/${s.id}`);
  });
});

describe('next due times', () => {
  const preview = (json: unknown) => call('POST', '/v1/schedules/preview', json);

  it('of a cron expression not saved, across daylight saving time', async () => {
    // New York moves its clocks forward on 14 March 2027: 02:30 that night does not exist.
    const spring = await preview({
      cron_expression: '30 2 * * ? *',
      expression_timezone: 'America/New_York',
      after: '2027-03-12T12:00:00Z',
      count: 4,
    });
    expect(spring.status).toBe(200);
    expect(spring.body).toEqual({
      object: 'schedule.preview',
      schedule_id: null,
      state: null,
      type: 'recurring',
      cron_expression: '30 2 * * ? *',
      execute_at: null,
      expression_timezone: 'America/New_York',
      description: 'At 02:30 AM',
      next_runs: [
        { at: '2027-03-13T07:30:00.000Z', local: '2027-03-13T02:30:00-05:00' },
        { at: '2027-03-14T07:00:00.000Z', local: '2027-03-14T03:00:00-04:00' },
        { at: '2027-03-15T06:30:00.000Z', local: '2027-03-15T02:30:00-04:00' },
        { at: '2027-03-16T06:30:00.000Z', local: '2027-03-16T02:30:00-04:00' },
      ],
    });
    // Back on 7 November 2027: an hourly expression fires in both 01:00s, a fixed 01:30 once.
    const hourly = await preview({
      cron_expression: '0 * * * ? *',
      expression_timezone: 'America/New_York',
      after: '2027-11-07T04:30:00Z',
      count: 3,
    });
    expect(hourly.body.next_runs).toEqual([
      { at: '2027-11-07T05:00:00.000Z', local: '2027-11-07T01:00:00-04:00' },
      { at: '2027-11-07T06:00:00.000Z', local: '2027-11-07T01:00:00-05:00' },
      { at: '2027-11-07T07:00:00.000Z', local: '2027-11-07T02:00:00-05:00' },
    ]);
    const fixed = await preview({
      cron_expression: '30 1 * * ? *',
      expression_timezone: 'America/New_York',
      after: '2027-11-06T12:00:00Z',
      count: 2,
    });
    expect(fixed.body.next_runs.map((r: Json) => r.local)).toEqual([
      '2027-11-07T01:30:00-04:00',
      '2027-11-08T01:30:00-05:00',
    ]);
  });

  it('of text and of execute_at, with the defaults: from now, ten of them', async () => {
    const words = await preview({ text: 'every weekday at 9am', expression_timezone: 'Europe/Berlin' });
    expect(words.body).toMatchObject({ cron_expression: '0 9 ? * MON-FRI *', expression_timezone: 'Europe/Berlin' });
    expect(words.body.next_runs).toHaveLength(10);
    expect(Date.parse(words.body.next_runs[0].at)).toBeGreaterThan(Date.now());
    for (const run of words.body.next_runs as Json[]) expect(run.local).toMatch(/T09:00:00\+0[12]:00$/);
    // Without an offset, execute_at is read on the zone's wall clock.
    const once = await preview({ execute_at: '2027-07-01T09:00', expression_timezone: 'Asia/Kolkata', after: null });
    expect(once.body).toMatchObject({
      type: 'onetime',
      execute_at: '2027-07-01T03:30:00.000Z',
      next_runs: [{ at: '2027-07-01T03:30:00.000Z', local: '2027-07-01T09:00:00+05:30' }],
    });
  });

  it('refuses what creating refuses, and counts out of range', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /^cron_expression: one of cron_expression \(recurring\), execute_at/],
      [{ cron_expression: '* * * * ? *' }, /^expression_timezone: is required with cron_expression/],
      [{ cron_expression: '0 9 * * ? 2001', expression_timezone: 'UTC' }, /^cron_expression: .* its last year is 2001/],
      [{ cron_expression: '* * * * ? *', expression_timezone: 'UTC', count: 0 }, /^count: must be at least 1/],
      [{ cron_expression: '* * * * ? *', expression_timezone: 'UTC', count: 101 }, /^count: must be at most 100/],
      [
        { cron_expression: '* * * * ? *', expression_timezone: 'UTC', after: 'soon' },
        /^after: "soon" is not an ISO 8601/,
      ],
      [{ cron_expression: '* * * * ? *', expression_timezone: 'UTC', method: 'GET' }, /method/],
    ];
    for (const [body, detail] of cases) {
      const res = await app.request('/v1/schedules/preview', { method: 'POST', json: body });
      expect((await expectEnvelope(res, 400)).detail, JSON.stringify(body)).toMatch(detail);
    }
  });

  it('of a saved schedule: enabled from its next_run_at, paused as if resumed now, none once deleted', async () => {
    const s = await create({
      method: 'GET',
      endpoint: url('/hook/never'),
      cron_expression: '0 12 ? * SUN *',
      expression_timezone: 'Europe/Paris',
    });
    const next = await call('GET', `/v1/schedules/${s.id}/next_runs?count=3`);
    expect(next.body).toMatchObject({
      object: 'schedule.preview',
      schedule_id: s.id,
      state: 'ENABLED',
      cron_expression: '0 12 ? * SUN *',
      expression_timezone: 'Europe/Paris',
    });
    const at = (next.body.next_runs as Json[]).map((r) => Date.parse(r.at));
    expect(at[0]).toBe(Date.parse(s.next_run_at));
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(7 * 86_400_000 - 3_600_000);
    for (const run of next.body.next_runs as Json[]) expect(run.local).toMatch(/T12:00:00\+0[12]:00$/);
    // After a given instant (here: the first one), then paused: the same week days.
    const after = await call(
      'GET',
      `/v1/schedules/${s.id}/next_runs?count=2&after=${encodeURIComponent(next.body.next_runs[0].at)}`,
    );
    expect(after.body.next_runs).toEqual(next.body.next_runs.slice(1, 3));
    await change(s.id, 'pause');
    const paused = await call('GET', `/v1/schedules/${s.id}/next_runs?count=3`);
    expect(paused.body).toMatchObject({ state: 'PAUSED', next_runs: next.body.next_runs });
    await call('DELETE', `/v1/schedules/${s.id}`);
    expect((await call('GET', `/v1/schedules/${s.id}/next_runs`)).body).toMatchObject({
      state: 'DELETED',
      next_runs: [],
    });
    const bad = await app.request(`/v1/schedules/${s.id}/next_runs?count=1000`);
    expect((await expectEnvelope(bad, 400)).detail).toMatch(/^count: must be at most 100/);
  });
});
