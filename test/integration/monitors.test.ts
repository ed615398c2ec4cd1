import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowLocalPorts } from '../support/config.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { html, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { editablePage, eventually, readSse, startSmtpInbox, type SmtpInbox } from '../support/monitor-harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// The monitor flows end to end on a real service with its job workers: creation (202 and the
// stream), a run that sees an edit, and its notifications (webhook, Slack-shaped, SMTP).

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let site: FixtureServer;
let hooks: WebhookReceiver;
let slack: WebhookReceiver;
let smtp: SmtpInbox;
let broken: WebhookReceiver;
let app: TestApp;
const pricing = editablePage(
  '<title>Pricing</title><h1>Pricing</h1><p>Starter plan: $10 per month</p><p>Pro plan: $30 per month</p>',
);

beforeAll(async () => {
  site = await startFixtureServer({
    '/pricing': pricing.handler,
    '/about': html('<title>About</title><h1>About us</h1><p>We make kettles.</p>'),
  });
  hooks = await startWebhookReceiver();
  slack = await startWebhookReceiver();
  smtp = await startSmtpInbox();
  broken = await startWebhookReceiver();
  broken.respondWith(() => 500);
  app = await startTestApp({
    workers: true,
    config: {
      outbound: allowLocalPorts(site.port, hooks.port, slack.port, broken.port),
      workers: { leaseMs: 10_000, retryBaseMs: 100 },
      webhooks: { retryScale: 0.001, timeoutMs: 2000, allowHttp: true },
      monitors: { smtpUrl: smtp.url, notifyRetryMs: 20, channelMaxFailures: 2 },
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await site?.close();
  await hooks?.close();
  await slack?.close();
  await smtp?.close();
  await broken?.close();
});

const get = async (path: string) => (await (await app.request(path)).json()) as Json;
const waitActive = (id: string) =>
  eventually(
    () => get(`/v1/monitors/${id}`),
    (m) => m.status === 'active',
  );
const waitRun = (id: string, runId: string) =>
  eventually(
    () => get(`/v1/monitors/${id}/runs/${runId}`),
    (r) => r.status === 'completed' || r.status === 'failed',
  );

describe('creation', () => {
  it('answers 202 provisioning, then becomes active with a first snapshot and a schedule', async () => {
    const res = await app.request('/v1/monitors', {
      method: 'POST',
      json: { query: `Tell me when ${site.url('/about')} changes`, frequency: 'every hour', metadata: { team: 'web' } },
    });
    expect(res.status).toBe(202);
    const created = (await res.json()) as Json;
    expect(created).toMatchObject({
      object: 'monitor',
      status: 'provisioning',
      tracked: { type: 'urls', urls: [site.url('/about')], web_query: null },
      schedule: { frequency: 'every hour', cron: '0 * * * ? *', timezone: 'UTC', next_run_at: null },
      metadata: { team: 'web' },
      error_message: null,
      last_run: null,
    });
    expect(created.id).toMatch(/^monitor_[0-9a-z]+$/);
    expect(created.agent.id).toMatch(/^agent_/);
    expect(created.created).toBeTypeOf('number');
    expect(created.mermaid_diagram).toMatch(/^flowchart TD/);
    const active = await waitActive(created.id);
    expect(active.last_run).toMatchObject({ status: 'completed', change_detected: false });
    expect(Date.parse(active.schedule.next_run_at)).toBeGreaterThan(Date.now());
    const events = await get(`/v1/monitors/${created.id}/events`);
    expect(events).toMatchObject({ has_more: false, next_cursor: null, total_count: 1 });
    expect(events.data[0]).toMatchObject({ type: 'first_snapshot', changed: false, run_id: active.last_run.id });
    const snapshot = (await (await fetch(events.data[0].snapshot_url)).json()) as Json;
    expect(snapshot.text).toContain('We make kettles.');
  });

  it('streams phase events and ends with complete carrying the active monitor', async () => {
    const res = await app.request('/v1/monitors?stream=true', {
      method: 'POST',
      json: { query: `Watch ${site.url('/about')}`, frequency: 'every 30 minutes' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readSse(res, (e) => e.event === 'complete' || e.event === 'error');
    expect(events.map((e) => e.event)).toEqual(['phase', 'phase', 'phase', 'phase', 'complete']);
    expect(events.slice(0, 4).map((e) => (e.data as Json).phase)).toEqual([
      'planning',
      'resolving_sources',
      'first_snapshot',
      'scheduling',
    ]);
    expect(events.every((e) => e.id !== null)).toBe(true);
    const { monitor } = events[4]!.data as Json;
    expect(monitor).toMatchObject({ object: 'monitor', status: 'active', last_run: { status: 'completed' } });
  });

  it('refuses a frequency under 10 minutes with {error, monitor_id} and creates nothing', async () => {
    const before = await get('/v1/monitors');
    const res = await app.request('/v1/monitors', {
      method: 'POST',
      json: { query: `Watch ${site.url('/about')}`, frequency: 'every 5 minutes' },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Json;
    expect(Object.keys(body).sort()).toEqual(['error', 'monitor_id']);
    expect(body.error).toMatch(/^frequency: .*at least 10 minutes/);
    expect(body.monitor_id).toBeTypeOf('string');
    expect((await get('/v1/monitors')).total_count).toBe(before.total_count);
  });
});

describe('a run after an edit', () => {
  let id: string;

  beforeAll(async () => {
    const res = await app.request('/v1/monitors', {
      method: 'POST',
      json: {
        query: `Tell me when the prices on ${site.url('/pricing')} change`,
        frequency: 'every day at 9am',
        notification: {
          events: ['changed'],
          channels: [
            { target: hooks.url, events: ['changed', 'first_snapshot'] },
            { target: slack.url, type: 'slack' },
            { target: 'mailto:Ops@Example.com' },
          ],
        },
      },
    });
    expect(res.status).toBe(202);
    id = ((await res.json()) as Json).id as string;
    await waitActive(id);
  });

  it('costs one 304 and no new object while the page is unchanged', async () => {
    const full = pricing.page.served.full;
    const res = await app.request(`/v1/monitors/${id}/runs`, { method: 'POST' });
    expect(res.status).toBe(202);
    const { run_id } = (await res.json()) as Json;
    const run = await waitRun(id, run_id);
    expect(run).toMatchObject({ status: 'completed', change_detected: false, trigger: 'manual' });
    expect(run.pages).toEqual([
      expect.objectContaining({ status: 'not_modified', http_status: 304, snapshot_key: null }),
    ]);
    expect(pricing.page.served.full).toBe(full);
    expect(pricing.page.served.notModified).toBeGreaterThanOrEqual(1);
    expect((await get(`/v1/monitors/${id}/events`)).total_count).toBe(1);
  });

  it('detects the edit on the next run and notifies the webhook, Slack and email', async () => {
    pricing.edit(
      '<title>Pricing</title><h1>Pricing</h1><p>Starter plan: $12 per month</p><p>Pro plan: $30 per month</p>',
    );
    const { run_id } = (await (await app.request(`/v1/monitors/${id}/runs`, { method: 'POST' })).json()) as Json;
    const run = await waitRun(id, run_id);
    expect(run).toMatchObject({ status: 'completed', change_detected: true });
    expect(run.summary).toMatch(/Starter plan: \$12 per month/);
    const monitor = await get(`/v1/monitors/${id}`);
    expect(monitor.last_run).toMatchObject({ id: run_id, change_detected: true });

    const events = await get(`/v1/monitors/${id}/events?limit=1`);
    expect(events).toMatchObject({ total_count: 2, has_more: true });
    const changed = events.data[0] as Json;
    expect(changed).toMatchObject({ type: 'changed', changed: true, run_id });
    const diff = await (await fetch(changed.diff_url)).text();
    expect(diff).toContain('-Starter plan: $10 per month');
    expect(diff).toContain('+Starter plan: $12 per month');
    const older = await get(`/v1/monitors/${id}/events?limit=1&cursor=${events.next_cursor}`);
    expect(older).toMatchObject({ has_more: false, next_cursor: null });
    expect(older.data[0].type).toBe('first_snapshot');

    // The webhook got first_snapshot (its own events) and changed, in the spec's envelope.
    const deliveries = await hooks.waitFor(2);
    const objects = deliveries.map((d) => d.body.object);
    expect(objects).toEqual(expect.arrayContaining(['event.monitor.first_snapshot', 'event.monitor.changed']));
    const hook = deliveries.find((d) => d.body.object === 'event.monitor.changed')!.body as Json;
    expect(hook).toMatchObject({
      delivery_attempt: '1/5',
      data: { id: changed.id, monitor_id: id, run_id, changed: true },
    });
    expect(hook.id).toMatch(/^event_/);
    expect(hook.data.summary).toBe(changed.summary);

    // Slack (changed only: the notification's events) got a message with text.
    const [message] = await slack.waitFor(1);
    expect(slack.received).toHaveLength(1);
    expect(message!.body.text).toMatch(/^Change detected: Tell me when the prices/);
    expect(message!.body.text).toContain('Starter plan: $12 per month');

    const [mail] = await smtp.waitFor(1);
    expect(mail!.to).toMatchObject({ value: [{ address: 'ops@example.com' }] });
    expect(mail!.subject).toMatch(/Change detected/);
    expect(mail!.text).toContain('Starter plan: $12 per month');
    expect(mail!.text).toContain(id);
  });
});

describe('a channel that keeps failing', () => {
  it('is retried a few times per event, then reported on the monitor and no longer used', async () => {
    const status = editablePage('<title>Status</title><h1>Status</h1><p>All systems normal.</p>');
    site.route('/status', status.handler);
    const res = await app.request('/v1/monitors', {
      method: 'POST',
      json: {
        query: `Watch ${site.url('/status')}`,
        notification: { channels: [{ target: broken.url, type: 'slack', events: ['first_snapshot', 'changed'] }] },
      },
    });
    const id = ((await res.json()) as Json).id as string;
    await waitActive(id);
    // first_snapshot: 4 attempts, then the channel's first failure is recorded.
    const failing = await eventually(
      () => get(`/v1/monitors/${id}`),
      (m) => m.notification.channels[0].failures === 1,
    );
    expect(broken.received).toHaveLength(4);
    expect(failing.notification.channels[0]).toMatchObject({
      status: 'failing',
      last_error: 'Slack webhook answered HTTP 500',
    });

    status.edit('<title>Status</title><h1>Status</h1><p>Degraded performance.</p>');
    await waitRun(
      id,
      ((await (await app.request(`/v1/monitors/${id}/runs`, { method: 'POST' })).json()) as Json).run_id,
    );
    const disabled = await eventually(
      () => get(`/v1/monitors/${id}`),
      (m) => m.notification.channels[0].status === 'disabled',
    );
    expect(disabled.notification.channels[0].failures).toBe(2);
    expect(broken.received).toHaveLength(8);

    status.edit('<title>Status</title><h1>Status</h1><p>All systems normal again.</p>');
    const run = await waitRun(
      id,
      ((await (await app.request(`/v1/monitors/${id}/runs`, { method: 'POST' })).json()) as Json).run_id,
    );
    expect(run.change_detected).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(broken.received).toHaveLength(8);
  });
});
