/**
 * Monitor benchmark (issue 16, item 6): N monitors on local pages, run by two worker processes
 * (`--role worker`) sharing a PostgreSQL server database and a DATA_DIR (the blob store) with an
 * API process. A 10-minute round is compressed: after provisioning, every monitor's next due
 * time is rewritten to fall inside a `--window-s` window (as its job would be queued, id
 * `<monitor>@<due>`), so N monitors every 10 minutes arrive at 600/window times their rate.
 * Round 1: no page changed (each run should cost one conditional GET and write nothing).
 * Round 2: every page changed. Measured per round: run lateness (started_at − scheduled_for)
 * p50/p99, CPU of the worker processes per run, database growth and new objects per 1,000 runs,
 * requests the pages answered (200 / 304). Run by hand, never by `npm test`:
 *
 *   node --import tsx bench/monitors.bench.ts --monitors 1000 --window-s 60
 *
 * Options: --monitors N (1000) --window-s S (60) --runs-per-thread N (16) --workers N (2)
 * --admin-database-url postgres://postgres@127.0.0.1:5432/postgres --out NAME.
 * Writes bench/results/NAME.md.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createBenchDatabase } from './lib/batch/bench-database.js';
import { descendants, readTreeCpuTime } from './lib/measure/proc-stats.js';
import { percentile, round } from './lib/measure/stats.js';
import { RESULTS_DIR } from './lib/paths.js';
import { createDataDir, startService, type ServiceProcess } from './lib/service-process.js';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    'window-s': { type: 'string', default: '60' },
    'runs-per-thread': { type: 'string', default: '16' },
    workers: { type: 'string', default: '2' },
    'admin-database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    out: { type: 'string' },
  },
});
const N = Number(values.monitors);
const windowMs = Number(values['window-s']) * 1000;
const log = (line: string) => process.stderr.write(`${line}\n`);

// The pages: /p/<i>, each with its version; ETag and Last-Modified, 304 on a matching If-None-Match.
const versions = new Array<number>(N).fill(1);
const served = { full: 0, notModified: 0 };
const body = (i: number) =>
  `<!doctype html><title>Product ${i}</title><h1>Product ${i}</h1><p>Price: $${10 + (i % 90)}.00</p>` +
  `<p>Version ${versions[i]} of this page.</p><p>${'Some description text. '.repeat(40)}</p>`;
const pages = http.createServer((req, res) => {
  const i = Number(req.url?.split('/')[2]);
  if (!(i >= 0 && i < N)) return void res.writeHead(404).end();
  const text = body(i);
  const etag = `"${createHash('sha1').update(text).digest('hex').slice(0, 16)}"`;
  if (req.headers['if-none-match'] === etag) {
    served.notModified++;
    return void res.writeHead(304, { etag }).end();
  }
  served.full++;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag, 'last-modified': new Date(0).toUTCString() });
  res.end(text);
});
await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

const db = await createBenchDatabase(values['admin-database-url']);
const client = new pg.Client({ connectionString: db.url });
const dataDir = await createDataDir();
const services: ServiceProcess[] = [];
const env = {
  MONITOR_THREADS: '1',
  MONITOR_RUNS_PER_THREAD: values['runs-per-thread'],
  WORKER_IDLE_STOP_MS: '0',
};
try {
  const api = await startService({ databaseUrl: db.url, dataDir, role: 'api', env });
  services.push(api);
  for (let w = 0; w < Number(values.workers); w++) {
    services.push(await startService({ databaseUrl: db.url, dataDir, role: 'worker', env, apiKey: api.apiKey }));
  }
  await client.connect();
  const workers = services.slice(1);
  const workerPids = () => workers.flatMap((s) => [s.pid, ...descendants(s.pid)]);

  log(`creating ${N} monitors…`);
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < N) {
        const i = next++;
        const res = await fetch(`${api.origin}/v1/monitors`, {
          method: 'POST',
          headers: { authorization: `Bearer ${api.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: `Watch ${origin}/p/${i}`, frequency: 'every 10 minutes' }),
        });
        if (res.status !== 202) throw new Error(`create ${i}: ${res.status} ${await res.text()}`);
      }
    }),
  );
  const created = Date.now() - started;
  await until(async () => (await count(`select count(*) from monitors where status = 'active'`)) === N, 600_000);
  const provisioned = Date.now() - started;
  log(`created in ${created} ms, all active after ${provisioned} ms`);

  const rounds = [];
  for (const [name, change] of [
    ['unchanged pages', false],
    ['every page changed', true],
  ] as const) {
    if (change) versions.fill(2);
    rounds.push(await round_(name, workerPids));
  }
  const report = render(rounds, { created, provisioned });
  const stem = values.out ?? `monitors-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  await fs.writeFile(path.join(RESULTS_DIR, `${stem}.md`), report);
  process.stdout.write(report);
} finally {
  await client.end().catch(() => undefined);
  for (const s of services.reverse()) await s.stop();
  await db.drop();
  await fs.rm(dataDir, { recursive: true, force: true });
  pages.close();
}

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await client.query<{ count: string }>(sql, params);
  return Number(rows[0]!.count);
}

async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const startedAt = Date.now();
  while (!(await check())) {
    if (Date.now() - startedAt > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function objects(): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (full.includes(`${path.sep}monitors${path.sep}`)) {
        files++;
        bytes += (await fs.stat(full)).size;
      }
    }
  };
  await walk(dataDir);
  return { files, bytes };
}

/** One compressed round: every monitor due once within the window, from 5 s from now. */
async function round_(name: string, pids: () => number[]) {
  const start = Date.now() + 5000;
  await client.query(`delete from jobs where kind = 'monitor.run' and status = 'queued'`);
  const { rows } = await client.query<{ id: string; team_id: string }>(`select id, team_id from monitors order by id`);
  const dues = rows.map((m, i) => ({ ...m, due: new Date(start + Math.floor((i / rows.length) * windowMs)) }));
  await client.query(
    `with r as (select * from jsonb_to_recordset($1::jsonb) as r(id text, team_id text, due timestamptz))
     update monitors m set next_run_at = r.due from r where m.id = r.id`,
    [JSON.stringify(dues)],
  );
  await client.query(
    `insert into jobs (id, kind, team_id, concurrency_key, payload, run_at, max_attempts)
     select r.id || '@' || to_char(r.due at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'monitor.run', r.team_id, r.id,
       jsonb_build_object('monitorId', r.id, 'trigger', 'schedule', 'due', to_char(r.due at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
       r.due, 3
     from jsonb_to_recordset($1::jsonb) as r(id text, team_id text, due timestamptz)`,
    [JSON.stringify(dues)],
  );
  const dbBefore = await count(`select pg_database_size(current_database()) as count`);
  const objBefore = await objects();
  const servedBefore = { ...served };
  const cpuBefore = readTreeCpuTime(pids());
  const since = new Date(start - 1000);
  await until(
    async () => (await count(`select count(*) from monitor_runs where scheduled_for >= $1`, [since])) >= rows.length,
    windowMs + 600_000,
  );
  const cpuAfter = readTreeCpuTime(pids());
  const { rows: runs } = await client.query<{ late: number; status: string; changed: boolean }>(
    `select extract(epoch from (started_at - scheduled_for)) * 1000 as late, status, change_detected as changed
     from monitor_runs where scheduled_for >= $1`,
    [since],
  );
  const late = runs.map((r) => Number(r.late)).sort((a, b) => a - b);
  const objAfter = await objects();
  const dbAfter = await count(`select pg_database_size(current_database()) as count`);
  const cpuMs = cpuAfter.userMs + cpuAfter.systemMs - cpuBefore.userMs - cpuBefore.systemMs;
  const per1000 = (v: number) => round((v / runs.length) * 1000, 0);
  const result = {
    name,
    runs: runs.length,
    failed: runs.filter((r) => r.status !== 'completed').length,
    changed: runs.filter((r) => r.changed).length,
    p50: round(percentile(late, 50), 0),
    p99: round(percentile(late, 99), 0),
    max: round(late[late.length - 1] ?? 0, 0),
    cpuPerRunMs: round(cpuMs / runs.length, 1),
    dbBytesPer1000: per1000(dbAfter - dbBefore),
    objectsPer1000: per1000(objAfter.files - objBefore.files),
    objectBytesPer1000: per1000(objAfter.bytes - objBefore.bytes),
    full: served.full - servedBefore.full,
    notModified: served.notModified - servedBefore.notModified,
  };
  log(JSON.stringify(result));
  return result;
}

function render(rounds: Awaited<ReturnType<typeof round_>>[], setup: { created: number; provisioned: number }): string {
  const rate = round((N / windowMs) * 1000, 1);
  const lines = [
    `# Monitors: ${N} monitors, ${values.workers} worker processes`,
    '',
    `${new Date().toISOString()} · Node ${process.version} · ${values.workers} worker processes × 1 monitor-runner thread × ${values['runs-per-thread']} runs · API process apart · PostgreSQL server`,
    '',
    `A 10-minute round compressed into ${values['window-s']} s: ${rate} runs due per second (${round(600_000 / windowMs, 1)}× the real rate of ${N} monitors every 10 minutes).`,
    `Creation: ${N} POSTs in ${setup.created} ms; all provisioned (first snapshot each) after ${setup.provisioned} ms.`,
    '',
    '| round | runs | failed | changed | lateness p50 | p99 | max | CPU per run | DB growth / 1,000 runs | new objects / 1,000 runs | object bytes / 1,000 runs | pages 200 | pages 304 |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rounds.map(
      (r) =>
        `| ${r.name} | ${r.runs} | ${r.failed} | ${r.changed} | ${r.p50} ms | ${r.p99} ms | ${r.max} ms | ${r.cpuPerRunMs} ms | ${r.dbBytesPer1000} B | ${r.objectsPer1000} | ${r.objectBytesPer1000} B | ${r.full} | ${r.notModified} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
