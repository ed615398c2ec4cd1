import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowLocalPorts } from '../support/config.js';
import { expectEnvelope, graphql } from '../support/envelope.js';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { collect, wsClient } from '../support/graphql-ws.js';
import { startTestApp, type TestApp } from '../support/app.js';

// Schedules against a real service with its workers: one-time and recurring schedules really
// call a local site (and this service's own endpoints in-process); bad input creates nothing
// and calls nothing.

interface Received {
  method: string;
  path: string;
  body: string;
  at: number;
  headers: IncomingMessage['headers'];
}

let app: TestApp;
let site: FixtureServer;
let model: FakeOpenAI;
const received: Received[] = [];
const BODY_LIMIT = 64 * 1024;

function record(req: IncomingMessage, done: (body: string) => void): void {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    received.push({ method: req.method ?? '', path: req.url ?? '', body, at: Date.now(), headers: req.headers });
    done(body);
  });
}

beforeAll(async () => {
  site = await startFixtureServer({
    '/hook/*': (req, res) =>
      record(req, () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: true, path: req.url, filler: 'x'.repeat(3000) }));
      }),
    '/page': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Scheduled page</title></head><body><h1>Scheduled</h1><p>Hello</p></body></html>');
    },
    '/moved': (_req, res) => {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    },
  });
  model = await startFakeOpenAI();
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port),
      server: { bodyLimitBytes: BODY_LIMIT },
      model: {
        baseUrl: model.baseUrl,
        apiKey: 'sk-test',
        name: 'fake-model',
        timeoutMs: 10_000,
        maxRetries: 0,
        contextTokens: 8192,
        maxOutputTokens: 256,
        structuredOutput: 'prompt',
      },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
  await model?.close();
});

type ScheduleJson = Record<string, unknown> & {
  id: string;
  state: string;
  next_run_at: string | null;
  last_run: Record<string, unknown> | null;
};

async function create(body: unknown, key?: string): Promise<ScheduleJson> {
  const res = await app.request('/v1/schedules', { method: 'POST', json: body, key });
  const json = (await res.json()) as ScheduleJson;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function get(id: string): Promise<ScheduleJson> {
  const res = await app.request(`/v1/schedules/${id}`, { headers: { 'content-type': 'application/json' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { schedule: ScheduleJson }).schedule;
}

async function runsOf(id: string): Promise<Record<string, unknown>[]> {
  const res = await app.request(`/v1/schedules/${id}/runs`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, unknown>[] }).data;
}

async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs: number,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

async function counts(): Promise<{ schedules: number; jobs: number }> {
  const conn = app.container.db.orm.em.getConnection();
  const [s] = await conn.execute<{ n: number }[]>('select count(*)::int as n from schedules');
  const [j] = await conn.execute<{ n: number }[]>(`select count(*)::int as n from jobs where kind = 'schedule.fire'`);
  return { schedules: s!.n, jobs: j!.n };
}

describe('one-time schedules', () => {
  it('GET a local site a few seconds ahead, once, then end DELETED', async () => {
    const due = inSeconds(3);
    const s = await create({ method: 'GET', endpoint: site.url('/hook/get-once'), execute_at: due, payload: null });
    expect(s).toMatchObject({
      id: s.id,
      schedule_id: s.id,
      type: 'onetime',
      method: 'GET',
      state: 'ENABLED',
      execute_at: due,
      next_run_at: due,
      expression_timezone: 'UTC',
      last_run: null,
      cron_expression: null,
      payload: {},
    });
    expect(s.id).toMatch(/^schedule_[0-9a-z]{20}$/);
    expect(typeof s.created).toBe('string');
    const hit = await waitFor('the call', async () => received.find((r) => r.path === '/hook/get-once'), 20_000);
    expect(hit.method).toBe('GET');
    expect(hit.body).toBe('');
    expect(hit.headers['x-gleaner-schedule-id']).toBe(s.id);
    // Fired on time (the queue claims within a second of the due time).
    expect(hit.at - Date.parse(due)).toBeGreaterThanOrEqual(0);
    expect(hit.at - Date.parse(due)).toBeLessThan(5000);
    const ended = await waitFor(
      'the end',
      async () => {
        const now = await get(s.id);
        return now.state === 'DELETED' ? now : null;
      },
      10_000,
    );
    expect(ended.next_run_at).toBeNull();
    expect(ended.last_run).toMatchObject({ status: 'succeeded', http_status: 200, missed_runs: 0, attempts: 1 });
    expect((ended.last_run!.response_excerpt as string).length).toBeLessThanOrEqual(1024);
    expect(ended.last_run!.response_excerpt as string).toContain('"ok":true');
    const runs = await runsOf(s.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]!.scheduled_for).toBe(due);
    // Listed only with include_deleted.
    const list = (await (await app.request('/v1/schedules')).json()) as { schedules: ScheduleJson[]; count: number };
    expect(list.schedules.map((x) => x.id)).not.toContain(s.id);
    const all = (await (await app.request('/v1/schedules?include_deleted=true')).json()) as {
      schedules: ScheduleJson[];
    };
    expect(all.schedules.map((x) => x.id)).toContain(s.id);
    await new Promise((r) => setTimeout(r, 1500));
    expect(received.filter((r) => r.path === '/hook/get-once')).toHaveLength(1);
  }, 40_000);

  it('POSTs its payload to a local site', async () => {
    const payload = { hello: 'world', n: [1, 2, 3], nested: { ok: true } };
    const s = await create({
      method: 'POST',
      endpoint: site.url('/hook/post-once'),
      execute_at: inSeconds(3),
      payload,
    });
    const hit = await waitFor('the call', async () => received.find((r) => r.path === '/hook/post-once'), 20_000);
    expect(hit.method).toBe('POST');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hit.body)).toEqual(payload);
    await waitFor('the end', async () => (await get(s.id)).state === 'DELETED', 10_000);
  }, 40_000);

  it('calls a short endpoint in-process as the team and records what it created', async () => {
    const s = await create({
      method: 'POST',
      endpoint: 'v1/scrapes',
      execute_at: inSeconds(2),
      payload: { url_to_scrape: site.url('/page'), formats: ['markdown'] },
    });
    expect(s.endpoint).toBe('v1/scrapes');
    const ended = await waitFor(
      'the run',
      async () => {
        const now = await get(s.id);
        return now.last_run && now.last_run.status !== 'running' ? now : null;
      },
      30_000,
    );
    expect(ended.last_run).toMatchObject({ status: 'succeeded', http_status: 200 });
    const scrapeId = ended.last_run!.resource_id as string;
    expect(scrapeId).toMatch(/^scrape_/);
    // The scrape belongs to the schedule's team.
    const scrape = (await (await app.request(`/v1/scrapes/${scrapeId}`)).json()) as Record<string, unknown>;
    expect(scrape.id).toBe(scrapeId);
  }, 40_000);

  it('keeps firing after the key that created it is revoked', async () => {
    const keyRes = await app.request('/v1/api-keys', { method: 'POST', json: { name: 'short-lived' } });
    const key = (await keyRes.json()) as { id: string; key: string };
    const s = await create(
      { method: 'GET', endpoint: site.url('/hook/after-revoke'), execute_at: inSeconds(3) },
      key.key,
    );
    expect((await app.request(`/v1/api-keys/${key.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    await waitFor('the call', async () => received.find((r) => r.path === '/hook/after-revoke'), 20_000);
    await waitFor('the end', async () => (await get(s.id)).state === 'DELETED', 10_000);
  }, 40_000);

  it('deleting a schedule stops it at once', async () => {
    const s = await create({ method: 'GET', endpoint: site.url('/hook/deleted'), execute_at: inSeconds(3) });
    const res = await app.request(`/v1/schedules/${s.id}`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(await res.json()).toEqual({ message: 'Schedule deleted', schedule_id: s.id });
    expect((await get(s.id)).state).toBe('DELETED');
    await new Promise((r) => setTimeout(r, 5000));
    expect(received.filter((r) => r.path === '/hook/deleted')).toHaveLength(0);
    expect(await runsOf(s.id)).toHaveLength(0);
  }, 20_000);

  it('records a redirect to a refused address as a failed run and never follows it', async () => {
    const s = await create({ method: 'GET', endpoint: site.url('/moved'), execute_at: inSeconds(2) });
    const ended = await waitFor(
      'the run',
      async () => {
        const now = await get(s.id);
        return now.last_run && now.last_run.status !== 'running' ? now : null;
      },
      20_000,
    );
    expect(ended.last_run).toMatchObject({ status: 'failed' });
    expect(ended.last_run!.error as string).toMatch(/blacklisted_domain|refused|not allowed/i);
  }, 30_000);
});

describe('recurring schedules', () => {
  it('fire on time every minute, and stop when deleted', async () => {
    const s = await create({
      method: 'POST',
      endpoint: site.url('/hook/minutely'),
      cron_expression: '* * * * ? *',
      expression_timezone: 'UTC',
      payload: { tick: true },
    });
    expect(s).toMatchObject({ type: 'recurring', cron_expression: '* * * * ? *', execute_at: null });
    expect(s.description).toBe('Every minute');
    const due = Date.parse(s.next_run_at!);
    expect(due % 60_000).toBe(0);
    expect(due - Date.now()).toBeLessThanOrEqual(60_000);
    const hit = await waitFor('the first run', async () => received.find((r) => r.path === '/hook/minutely'), 75_000);
    expect(hit.at - due).toBeGreaterThanOrEqual(0);
    expect(hit.at - due).toBeLessThan(5000);
    const after = await waitFor(
      'the run recorded',
      async () => {
        const now = await get(s.id);
        return now.last_run?.status === 'succeeded' ? now : null;
      },
      10_000,
    );
    expect(after.state).toBe('ENABLED');
    expect(Date.parse(after.next_run_at!)).toBe(due + 60_000);
    expect(after.last_run!.scheduled_for).toBe(new Date(due).toISOString());
    await app.request(`/v1/schedules/${s.id}`, { method: 'DELETE' });
    const jobs = await app.container.db.orm.em
      .getConnection()
      .execute<{ n: number }[]>(`select count(*)::int as n from jobs where id like ? and status = 'queued'`, [
        `${s.id}:%`,
      ]);
    expect(jobs[0]!.n).toBe(0);
  }, 100_000);

  it('fires due times missed while no worker ran once, recording missed_runs', async () => {
    const s = await create({
      method: 'GET',
      endpoint: site.url('/hook/missed'),
      cron_expression: '0/1 * * * ? *',
      expression_timezone: 'Europe/Berlin',
    });
    // As if the workers had been down for three minutes: the queued due time lies in the past.
    const now = Date.now();
    const missedDue = new Date(Math.floor(now / 60_000) * 60_000 - 3 * 60_000);
    await app.container.db.orm.em.fork().transactional(async (em) => {
      const conn = em.getConnection();
      const ctx = em.getTransactionContext();
      await conn.execute(`delete from jobs where id like ?`, [`${s.id}:%`], 'all', ctx);
      await conn.execute(`update schedules set next_run_at = ? where id = ?`, [missedDue, s.id], 'all', ctx);
      await app.container.queue.enqueue(
        [
          {
            id: `${s.id}:${missedDue.toISOString()}`,
            kind: 'schedule.fire',
            payload: { scheduleId: s.id, due: missedDue.toISOString() },
            runAt: missedDue,
          },
        ],
        em,
      );
    });
    const run = await waitFor(
      'the recovery run',
      async () => (await runsOf(s.id)).find((r) => r.status !== 'running'),
      20_000,
    );
    expect(run.scheduled_for).toBe(missedDue.toISOString());
    // The due times after the missed one up to now (three, or four if a minute turned meanwhile).
    expect(run.missed_runs as number).toBeGreaterThanOrEqual(3);
    expect(run.missed_runs as number).toBeLessThanOrEqual(4);
    const after = await get(s.id);
    expect(Date.parse(after.next_run_at!)).toBeGreaterThan(Date.now());
    expect(received.filter((r) => r.path === '/hook/missed')).toHaveLength(1);
    expect(await runsOf(s.id)).toHaveLength(1);
    await app.request(`/v1/schedules/${s.id}`, { method: 'DELETE' });
  }, 40_000);

  it('converts text to a cron expression with a description, and asks the model for what the parser misses', async () => {
    const s = await create({ method: 'GET', endpoint: site.url('/hook/text'), text: 'every weekday at 9am' });
    expect(s).toMatchObject({
      type: 'recurring',
      cron_expression: '0 9 ? * MON-FRI *',
      text: 'every weekday at 9am',
      expression_timezone: 'UTC',
    });
    expect(s.description).toMatch(/09:00 AM, Monday through Friday/);
    model.reply({ text: '0 7 ? * SAT *' });
    const fromModel = await create({
      method: 'GET',
      endpoint: site.url('/hook/text'),
      text: 'when the roosters crow on saturdays',
      expression_timezone: 'Europe/Paris',
    });
    expect(fromModel).toMatchObject({ cron_expression: '0 7 ? * SAT *', expression_timezone: 'Europe/Paris' });
    expect(model.calls.at(-1)!.body!.messages.at(-1)!.content).toContain('roosters');
    for (const id of [s.id, fromModel.id]) await app.request(`/v1/schedules/${id}`, { method: 'DELETE' });
  });
});

describe('bad input creates nothing and calls nothing', () => {
  const url = () => site.url('/hook/never');
  const cases: [string, () => unknown, number, RegExp][] = [
    [
      'past execute_at',
      () => ({ method: 'GET', endpoint: url(), execute_at: '2020-01-01T00:00:00Z' }),
      400,
      /execute_at/,
    ],
    ['malformed execute_at', () => ({ method: 'GET', endpoint: url(), execute_at: 'tomorrow 9am' }), 400, /execute_at/],
    [
      'execute_at 30 February',
      () => ({ method: 'GET', endpoint: url(), execute_at: '2099-02-30T09:00:00Z' }),
      400,
      /execute_at/,
    ],
    [
      'recurring without a time zone',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '0 9 * * ? *' }),
      400,
      /expression_timezone/,
    ],
    [
      'unknown time zone',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '0 9 * * ? *', expression_timezone: 'Mars/Olympus' }),
      400,
      /expression_timezone/,
    ],
    [
      '5 fields',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '0 9 * * ?', expression_timezone: 'UTC' }),
      400,
      /cron_expression/,
    ],
    [
      '7 fields',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '0 0 9 * * ? *', expression_timezone: 'UTC' }),
      400,
      /cron_expression/,
    ],
    [
      'minute out of range',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '60 9 * * ? *', expression_timezone: 'UTC' }),
      400,
      /cron_expression/,
    ],
    [
      'day-of-week out of range',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '0 9 ? * 8 *', expression_timezone: 'UTC' }),
      400,
      /day-of-week/,
    ],
    [
      'both day fields without ?',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '0 9 * * MON *', expression_timezone: 'UTC' }),
      400,
      /cron_expression/,
    ],
    [
      'years over',
      () => ({ method: 'GET', endpoint: url(), cron_expression: '0 9 * * ? 2001', expression_timezone: 'UTC' }),
      400,
      /cron_expression/,
    ],
    [
      'cron with execute_at',
      () => ({
        method: 'GET',
        endpoint: url(),
        cron_expression: '0 9 * * ? *',
        expression_timezone: 'UTC',
        execute_at: inSeconds(60),
      }),
      400,
      /execute_at/,
    ],
    [
      'cron with text',
      () => ({
        method: 'GET',
        endpoint: url(),
        cron_expression: '0 9 * * ? *',
        expression_timezone: 'UTC',
        text: 'daily',
      }),
      400,
      /text/,
    ],
    ['none of the three', () => ({ method: 'GET', endpoint: url() }), 400, /cron_expression/],
    [
      'text nobody understands',
      () => ({ method: 'GET', endpoint: url(), text: 'whenever the moon is blue' }),
      400,
      /text: not understood/,
    ],
    ['method PUT', () => ({ method: 'PUT', endpoint: url(), execute_at: inSeconds(60) }), 400, /method/],
    ['no method', () => ({ endpoint: url(), execute_at: inSeconds(60) }), 400, /method/],
    [
      'endpoint neither short nor a URL',
      () => ({ method: 'POST', endpoint: 'scrapes', execute_at: inSeconds(60) }),
      400,
      /endpoint/,
    ],
    [
      'unknown short endpoint',
      () => ({ method: 'POST', endpoint: 'v1/api-keys', execute_at: inSeconds(60) }),
      400,
      /endpoint/,
    ],
    [
      'ftp endpoint',
      () => ({ method: 'GET', endpoint: 'ftp://example.com/x', execute_at: inSeconds(60) }),
      400,
      /endpoint/,
    ],
    [
      'refused address',
      () => ({ method: 'GET', endpoint: 'http://10.1.2.3/hook', execute_at: inSeconds(60) }),
      403,
      /endpoint/,
    ],
    [
      'metadata address',
      () => ({ method: 'GET', endpoint: 'http://169.254.169.254/latest/meta-data/', execute_at: inSeconds(60) }),
      403,
      /endpoint/,
    ],
    [
      'loopback port not allowed',
      () => ({ method: 'GET', endpoint: 'http://127.0.0.1:1/x', execute_at: inSeconds(60) }),
      403,
      /endpoint/,
    ],
    [
      'short endpoint payload invalid',
      () => ({ method: 'POST', endpoint: 'v1/scrapes', execute_at: inSeconds(60), payload: { formats: ['markdown'] } }),
      400,
      /payload/,
    ],
    [
      'payload not an object',
      () => ({ method: 'POST', endpoint: url(), execute_at: inSeconds(60), payload: [1, 2] }),
      400,
      /payload/,
    ],
    [
      'unknown field',
      () => ({ method: 'GET', endpoint: url(), execute_at: inSeconds(60), cron: '0 9 * * ? *' }),
      400,
      /cron/,
    ],
    [
      'payload over the body limit',
      () => ({
        method: 'POST',
        endpoint: url(),
        execute_at: inSeconds(60),
        payload: { big: 'x'.repeat(BODY_LIMIT + 10) },
      }),
      413,
      /./,
    ],
  ];

  it.each(cases)('%s', async (_name, body, status, detail) => {
    const before = await counts();
    const calls = model.calls.length;
    const asksModel = _name === 'text nobody understands';
    if (asksModel) model.reply({ text: 'NONE' });
    const res = await app.request('/v1/schedules', { method: 'POST', json: body() });
    const envelope = await expectEnvelope(res, status);
    expect(envelope.detail).toMatch(detail);
    expect(await counts()).toEqual(before);
    // Only text the parser cannot read reaches the model.
    expect(model.calls.length).toBe(asksModel ? calls + 1 : calls);
  });

  it('never calls what it refused', async () => {
    await new Promise((r) => setTimeout(r, 1000));
    expect(received.filter((r) => r.path === '/hook/never')).toHaveLength(0);
  });

  it("another team's schedule is a 404 everywhere", async () => {
    const mine = await create({ method: 'GET', endpoint: url(), execute_at: inSeconds(3600) });
    const other = await app.otherTeam();
    for (const [method, path] of [
      ['GET', `/v1/schedules/${mine.id}`],
      ['GET', `/v1/schedules/${mine.id}/runs`],
      ['DELETE', `/v1/schedules/${mine.id}`],
    ] as const) {
      const envelope = await expectEnvelope(await app.request(path, { method, key: other.key }), 404);
      expect(envelope.code).toBe('schedule_not_found');
    }
    const theirs = (await (await app.request('/v1/schedules?include_deleted=true', { key: other.key })).json()) as {
      count: number;
    };
    expect(theirs.count).toBe(0);
    expect((await get(mine.id)).state).toBe('ENABLED');
    await app.request(`/v1/schedules/${mine.id}`, { method: 'DELETE' });
  });
});

describe('GraphQL', () => {
  it('creates, reads, lists and deletes schedules, and streams a schedule’s runs', async () => {
    const created = await graphql(
      app.url,
      app.key,
      `
        mutation ($input: CreateScheduleInput!) {
          createSchedule(input: $input) {
            id
            scheduleId
            type
            state
            nextRunAt
            executeAt
            payload
          }
        }
      `,
      {
        input: {
          method: 'POST',
          endpoint: site.url('/hook/graphql'),
          executeAt: inSeconds(4),
          payload: { via: 'graphql' },
        },
      },
    );
    expect(created.errors).toBeUndefined();
    const s = created.data!.createSchedule as { id: string; scheduleId: string; type: string; state: string };
    expect(s).toMatchObject({ type: 'onetime', state: 'ENABLED', scheduleId: s.id });

    const client = wsClient(app.url, app.key);
    const stream = collect<{ scheduleRuns: { status: string; scheduleId: string } }>(
      client,
      `subscription { scheduleRuns(id: "${s.id}") { status scheduleId httpStatus } }`,
      2,
      30_000,
    );
    await stream.ready;
    const events = await stream.done;
    expect(events.map((e) => e.scheduleRuns.status)).toEqual(['running', 'succeeded']);
    await client.dispose();

    const read = await graphql(
      app.url,
      app.key,
      `{ schedule(id: "${s.id}") { state lastRun { status httpStatus } runs { status } } schedules(includeDeleted: true) { id } }`,
    );
    expect(read.errors).toBeUndefined();
    expect(read.data!.schedule).toMatchObject({ state: 'DELETED', lastRun: { status: 'succeeded', httpStatus: 200 } });
    expect((read.data!.schedules as { id: string }[]).map((x) => x.id)).toContain(s.id);
    expect(JSON.parse(received.find((r) => r.path === '/hook/graphql')!.body)).toEqual({ via: 'graphql' });

    const bad = await graphql(
      app.url,
      app.key,
      `mutation { createSchedule(input: { method: "GET", endpoint: "${site.url('/hook/never')}", cronExpression: "0 9 * * ? *" }) { id } }`,
    );
    expect(bad.errors?.[0]?.message).toMatch(/expression_timezone|expressionTimezone/);

    const later = await graphql(
      app.url,
      app.key,
      `mutation { createSchedule(input: { method: "GET", endpoint: "${site.url('/hook/never')}", cronExpression: "0 9 ? * MON-FRI *", expressionTimezone: "America/New_York" }) { id description } }`,
    );
    const laterId = (later.data!.createSchedule as { id: string }).id;
    const deleted = await graphql(
      app.url,
      app.key,
      `mutation { deleteSchedule(id: "${laterId}") { id state nextRunAt } }`,
    );
    expect(deleted.data!.deleteSchedule).toEqual({ id: laterId, state: 'DELETED', nextRunAt: null });
  }, 60_000);
});
