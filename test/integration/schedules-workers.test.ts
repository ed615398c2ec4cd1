import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import type { Actor } from '../../src/domain/auth/actor.js';
import { allowLocalPorts, tempDir, testConfig } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';

// Schedules on several worker processes sharing one Postgres: every due time fires exactly
// once, and a worker killed in the middle of a call loses nothing (another takes the run over).

let site: FixtureServer;
let db: TestDatabase;
let api: Container;
let actor: Actor;
let workers: SpawnedService[] = [];
const hits = new Map<string, number>();
const slowFirst: { held: ServerResponse[]; arrived: number } = { held: [], arrived: 0 };
/** `/held/<n>`: every path's first call hangs until released; later calls answer at once. */
const heldFirst = { held: [] as ServerResponse[], calls: new Map<string, number>() };

beforeAll(async () => {
  site = await startFixtureServer({
    '/tick/*': (req: IncomingMessage, res) => {
      hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
      res.end('ok');
    },
    '/held/*': (req: IncomingMessage, res) => {
      const n = (heldFirst.calls.get(req.url!) ?? 0) + 1;
      heldFirst.calls.set(req.url!, n);
      if (n === 1) heldFirst.held.push(res);
      else res.end('again');
    },
    // The first call hangs (its worker is killed meanwhile); later ones answer at once.
    '/slow': (_req, res) => {
      slowFirst.arrived++;
      if (slowFirst.arrived === 1) slowFirst.held.push(res);
      else res.end('second time lucky');
    },
  });
  db = await createTestDatabase();
  api = await createContainer(testConfig({ database: { url: db.url }, outbound: allowLocalPorts(site.port) }), {
    role: 'api',
  });
  const team = await api.services.apiKeys.createTeam('schedules-workers');
  actor = { teamId: team.id, via: 'api_key' };
}, 120_000);

afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop('SIGKILL')));
  workers = [];
});

afterAll(async () => {
  for (const res of [...slowFirst.held, ...heldFirst.held]) res.destroy();
  await api?.close();
  await site?.close();
  await db?.drop();
});

/** `leaseMs`: short for the crash test (a dead worker's run comes back sooner); the default otherwise. */
function startWorkers(n: number, leaseMs = 30_000, fireConcurrency?: number): Promise<SpawnedService[]> {
  const env = {
    ...(fireConcurrency === undefined ? {} : { SCHEDULE_FIRE_CONCURRENCY: String(fireConcurrency) }),
    DATABASE_URL: db.url,
    DATA_DIR: tempDir('gleaner-schedule-worker-'),
    OUTBOUND_ALLOW_ADDRESSES: `127.0.0.1:${site.port}`,
    WORKER_LEASE_MS: String(leaseMs),
    LOG_LEVEL: 'info',
  };
  return Promise.all(
    Array.from({ length: n }, () => spawnService(env, ['--role', 'worker'], 180_000, 'workers ready')),
  );
}

async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  return api.db.orm.em.getConnection().execute<T[]>(sql, params);
}

describe('schedules on several worker processes', () => {
  it('three workers fire each due time exactly once', { timeout: 240_000 }, async () => {
    workers = await startWorkers(3);
    const n = 150;
    const due = new Date(Math.ceil((Date.now() + 15_000) / 1000) * 1000);
    for (let i = 0; i < n; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          api.services.schedules.create(actor, {
            method: 'GET',
            endpoint: site.url(`/tick/${i + j}`),
            execute_at: due.toISOString(),
          }),
        ),
      );
    }
    expect(Date.now()).toBeLessThan(due.getTime());
    await waitUntil(
      'every schedule has run',
      async () => {
        const [row] = await query<{ n: number }>(
          `select count(*)::int as n from schedule_runs where status <> 'running'`,
        );
        return row!.n >= n;
      },
      90_000,
    );
    // A moment for any duplicate to show up.
    await new Promise((r) => setTimeout(r, 2000));
    const runs = await query<{ status: string; attempts: number; n: number }>(
      `select status, attempts, count(*)::int as n from schedule_runs group by 1, 2`,
    );
    expect(runs).toEqual([{ status: 'succeeded', attempts: 1, n }]);
    for (let i = 0; i < n; i++) expect(hits.get(`/tick/${i}`), `/tick/${i}`).toBe(1);
    const states = await query<{ state: string; n: number }>(
      `select state, count(*)::int as n from schedules group by 1`,
    );
    expect(states).toEqual([{ state: 'DELETED', n }]);
  });

  it('a worker killed mid-call loses nothing: another takes the run over, once', { timeout: 240_000 }, async () => {
    workers = await startWorkers(2, 3000);
    const s = await api.services.schedules.create(actor, {
      method: 'POST',
      endpoint: site.url('/slow'),
      execute_at: new Date(Date.now() + 3000).toISOString(),
      payload: { crash: 'test' },
    });
    await waitUntil('the first call arrives', () => slowFirst.arrived === 1, 60_000);
    const [job] = await query<{ lease_owner: string }>(
      `select lease_owner from jobs where kind = 'schedule.fire' and status = 'running'`,
    );
    const pid = Number(job!.lease_owner.split(':')[1]);
    const victim = workers.find((w) => w.child.pid === pid);
    expect(victim, `a spawned worker holds the job (${job!.lease_owner})`).toBeDefined();
    await victim!.stop('SIGKILL');
    const [running] = await query<{ status: string }>(`select status from schedule_runs where schedule_id = ?`, [s.id]);
    expect(running!.status).toBe('running');
    await waitUntil(
      'the run is taken over and finished',
      async () => {
        const [run] = await query<{ status: string }>(`select status from schedule_runs where schedule_id = ?`, [s.id]);
        return run?.status === 'succeeded';
      },
      60_000,
    );
    expect(slowFirst.arrived).toBe(2);
    const runs = await api.services.schedules.runs(actor, s.id);
    expect(runs.data).toHaveLength(1);
    expect(runs.data[0]).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      httpStatus: 200,
      responseExcerpt: 'second time lucky',
    });
    expect((await api.services.schedules.get(actor, s.id)).state).toBe('DELETED');
  });

  it(
    'a worker killed with a group of calls under way loses none: each is taken over once',
    { timeout: 240_000 },
    async () => {
      workers = await startWorkers(2, 3000, 16);
      const n = 24; // both workers begin a group (16 firings each at most)
      const due = new Date(Date.now() + 6000).toISOString();
      const ids = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const s = await api.services.schedules.create(actor, {
            method: 'GET',
            endpoint: site.url(`/held/${i}`),
            execute_at: due,
          });
          return s.id;
        }),
      );
      await waitUntil('every first call arrives', () => heldFirst.held.length === n, 60_000);
      const running = await query<{ sid: string; lease_owner: string }>(
        `select payload->>'scheduleId' as sid, lease_owner from jobs where kind = 'schedule.fire' and status = 'running'`,
      );
      expect(running).toHaveLength(n);
      const pidOf = (owner: string) => Number(owner.split(':')[1]);
      const counts = new Map<number, number>();
      for (const r of running) counts.set(pidOf(r.lease_owner), (counts.get(pidOf(r.lease_owner)) ?? 0) + 1);
      expect(counts.size, 'both workers hold a group').toBe(2);
      const victimPid = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      const lost = new Set(running.filter((r) => pidOf(r.lease_owner) === victimPid).map((r) => r.sid));
      await workers.find((w) => w.child.pid === victimPid)!.stop('SIGKILL');
      for (const res of heldFirst.held) if (!res.destroyed) res.end('ok');
      await waitUntil(
        'every run is recorded',
        async () => {
          const [row] = await query<{ n: number }>(
            `select count(*)::int as n from schedule_runs where status <> 'running' and schedule_id in (?)`,
            [ids],
          );
          return row!.n === n;
        },
        90_000,
      );
      const runs = await query<{ schedule_id: string; status: string; attempts: number }>(
        `select schedule_id, status, attempts from schedule_runs where schedule_id in (?)`,
        [ids],
      );
      expect(runs).toHaveLength(n);
      for (const [i, id] of ids.entries()) {
        const run = runs.find((r) => r.schedule_id === id)!;
        const again = lost.has(id);
        expect(run, id).toMatchObject({ status: 'succeeded', attempts: again ? 2 : 1 });
        expect(heldFirst.calls.get(`/held/${i}`), `/held/${i}`).toBe(again ? 2 : 1);
      }
    },
  );
});
