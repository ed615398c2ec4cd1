import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { allowLocalPorts } from '../support/config.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { collect, wsClient } from '../support/graphql-ws.js';
import { eventually } from '../support/monitor-harness.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';

// Live progress across two OS processes on the Postgres server: this process is the API (no
// workers) with a GraphQL subscriber over a real WebSocket; a `--role worker` process started
// as `npm start` starts it provisions and runs the monitor. Its phases reach the subscriber only
// through Postgres LISTEN/NOTIFY; its snapshots through the shared DATA_DIR.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface Progress {
  monitorProgress: { phase: string; runId: string | null };
}

let site: FixtureServer;
let api: TestApp;
let worker: SpawnedService | null = null;
let page = '<title>Prices</title><h1>Prices</h1><p>The kettle costs 40 EUR.</p>';

beforeAll(async () => {
  site = await startFixtureServer({
    '/prices': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    },
  });
  api = await startTestApp({ config: { outbound: allowLocalPorts(site.port) } });
}, 120_000);

afterAll(async () => {
  await worker?.stop('SIGTERM');
  await api?.close();
  await site?.close();
});

const progressQuery = (id: string) => `subscription { monitorProgress(id: "${id}") { phase runId } }`;

describe('monitor progress from a worker process', () => {
  it('a subscriber on the API sees the provisioning and a run done by another process', async () => {
    const res = await api.request('/v1/monitors', {
      method: 'POST',
      json: { query: `Watch ${site.url('/prices')}`, frequency: 'every 30 minutes' },
    });
    expect(res.status).toBe(202);
    const id = ((await res.json()) as Json).id as string;
    const client = wsClient(api.url, api.key);
    try {
      const provisioning = collect<Progress>(client, progressQuery(id), 9, 120_000);
      await provisioning.ready;
      // Nothing has run the provisioning job yet: the worker process starts only now.
      worker = await spawnService(
        {
          DATABASE_URL: api.config.database.url!,
          DATA_DIR: api.config.dataDir,
          OUTBOUND_ALLOW_ADDRESSES: `127.0.0.1:${site.port}`,
        },
        ['--role', 'worker'],
        180_000,
        'workers ready',
      );
      const phases = (await provisioning.done).map((e) => e.monitorProgress.phase);
      expect(phases[0]).toBe('planning');
      expect(phases).toContain('first_snapshot');
      expect(phases.at(-1)).toBe('provisioned');
      await eventually(
        async () => (await (await api.request(`/v1/monitors/${id}`)).json()) as Json,
        (m) => m.status === 'active',
      );

      const steps = collect<Progress>(client, progressQuery(id), 5, 60_000);
      const events = collect<{ monitorEvents: { type: string; changed: boolean; summary: string } }>(
        client,
        `subscription { monitorEvents(id: "${id}") { type changed summary } }`,
        1,
        60_000,
      );
      await Promise.all([steps.ready, events.ready]);
      page = '<title>Prices</title><h1>Prices</h1><p>The kettle costs 35 EUR.</p>';
      const run = (await (await api.request(`/v1/monitors/${id}/runs`, { method: 'POST' })).json()) as Json;
      const seen = (await steps.done).map((e) => e.monitorProgress);
      expect(seen.map((s) => s.phase)).toEqual(['run_started', 'fetching', 'comparing', 'notifying', 'run_completed']);
      expect(seen.every((s) => s.runId === run.run_id)).toBe(true);
      const [event] = await events.done;
      expect(event!.monitorEvents).toMatchObject({ type: 'changed', changed: true });
      expect(event!.monitorEvents.summary).toContain('35 EUR');
    } finally {
      await client.dispose();
    }
  }, 300_000);
});
