import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import { startWorkers, type Workers } from '../../src/workers/workers.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { collect, wsClient } from '../support/graphql-ws.js';
import { eventually } from '../support/monitor-harness.js';

// Live progress across two services sharing the Postgres server: the API (no workers) serves
// a GraphQL subscriber over a real WebSocket; the other container's worker threads provision
// and run the monitor. Phases travel thread → process → LISTEN/NOTIFY → the subscriber.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Progress {
  monitorProgress: { phase: string; message: string; runId: string | null; source: string | null };
}

let site: FixtureServer;
let api: TestApp;
let worker: Container | null = null;
let workers: Workers | null = null;
let page = '<title>News</title><h1>News</h1><p>Nothing yet.</p>';

beforeAll(async () => {
  site = await startFixtureServer({
    '/news': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    },
  });
  api = await startTestApp({
    config: { outbound: allowLocalPorts(site.port), workers: { leaseMs: 10_000, retryBaseMs: 100 } },
  });
}, 120_000);

afterAll(async () => {
  await workers?.stop();
  await worker?.close();
  await api?.close();
  await site?.close();
});

const progressQuery = (id: string) => `subscription { monitorProgress(id: "${id}") { phase message runId source } }`;

describe('monitorProgress over graphql-ws', () => {
  let id: string;

  it('shows every phase of a provisioning done by another service’s workers', async () => {
    const res = await api.request('/v1/monitors', {
      method: 'POST',
      json: { query: `Watch ${site.url('/news')}`, frequency: 'every 15 minutes' },
    });
    expect(res.status).toBe(202);
    id = ((await res.json()) as Json).id as string;
    const client = wsClient(api.url, api.key);
    const sub = collect<Progress>(client, progressQuery(id), 9, 60_000);
    await sub.ready;
    // Only now does anything run the provisioning job: the worker service starts.
    worker = await createContainer(api.config);
    workers = await startWorkers(worker);
    await workers.ready;
    const phases = (await sub.done).map((e) => e.monitorProgress);
    await client.dispose();
    expect(phases.map((p) => p.phase)).toEqual([
      'planning',
      'resolving_sources',
      'first_snapshot',
      'run_started',
      'fetching',
      'comparing',
      'scheduling',
      'run_completed',
      'provisioned',
    ]);
    expect(phases[4]).toMatchObject({ source: site.url('/news') });
    expect(phases[0]!.message).toMatch(/Tracking the URL named in the query/);
    const monitor = await eventually(
      async () => (await (await api.request(`/v1/monitors/${id}`)).json()) as Json,
      (m) => m.status === 'active',
    );
    expect(monitor.last_run.id).toBe(phases[3]!.runId);
  });

  it('shows the steps of a run, and monitorEvents the change it found', async () => {
    const client = wsClient(api.url, api.key);
    const steps = collect<Progress>(client, progressQuery(id), 5, 60_000);
    const events = collect<{ monitorEvents: { type: string; changed: boolean; summary: string } }>(
      client,
      `subscription { monitorEvents(id: "${id}") { type changed summary runId } }`,
      1,
      60_000,
    );
    await Promise.all([steps.ready, events.ready]);
    page = '<title>News</title><h1>News</h1><p>Version 2 is out.</p>';
    const run = (await (await api.request(`/v1/monitors/${id}/runs`, { method: 'POST' })).json()) as Json;
    const seen = (await steps.done).map((e) => e.monitorProgress);
    expect(seen.map((s) => s.phase)).toEqual(['run_started', 'fetching', 'comparing', 'notifying', 'run_completed']);
    expect(seen.every((s) => s.runId === run.run_id)).toBe(true);
    const [event] = await events.done;
    await client.dispose();
    expect(event!.monitorEvents).toMatchObject({ type: 'changed', changed: true });
    expect(event!.monitorEvents.summary).toContain('Version 2 is out.');
  });

  it('refuses another team’s monitor with not found', async () => {
    const other = await api.otherTeam();
    const client = wsClient(api.url, other.key);
    const sub = collect<Progress>(client, progressQuery(id), 1, 10_000);
    await expect(sub.done).rejects.toThrow(/monitor_not_found|does not exist/);
    await client.dispose();
  });
});
