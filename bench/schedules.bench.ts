/**
 * Schedules benchmark (issue 14, item 6): N schedules (default 10,000) due in the same minute,
 * fired by W worker processes (default 2, `--role worker`) sharing a PostgreSQL server database.
 * Every schedule must fire exactly once; the report gives lateness (the run's start − its due
 * time, and the call's arrival at the target − the due time) p50/p99/max and the database load
 * of the firing window (transactions, rows, blocks, from pg_stat_database) and the workers' CPU.
 * Run by hand, never by `npm test`:
 *
 *   node --import tsx bench/schedules.bench.ts --schedules 10000 --workers 2
 *
 * Options: --schedules N --workers N --lead S (seconds from now to the due minute at least;
 * default 150: creating the schedules and booting the workers must fit) --create-concurrency N
 * (default 32) --admin-database-url postgres://postgres@127.0.0.1:5432/postgres (a fresh
 * database is created there and dropped after) --set NAME=VALUE (worker settings, repeatable)
 * --cpu-prof DIR (the worker processes write V8 CPU profiles there as they stop; summarise them
 * with bench/profile-summary.ts) --out NAME. Writes bench/results/NAME.json (git-ignored) and NAME.md. See docs/benchmarks.md,
 * "Schedules".
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { startRoleProcess, type RoleProcess } from './lib/batch/role-process.js';
import { cpuDelta, readTreeCpuTime, descendants } from './lib/measure/proc-stats.js';
import { summarise, round } from './lib/measure/stats.js';
import { RESULTS_DIR } from './lib/paths.js';
import { settingsOf } from './lib/settings-args.js';

const { values } = parseArgs({
  options: {
    schedules: { type: 'string', default: '10000' },
    workers: { type: 'string', default: '2' },
    lead: { type: 'string', default: '150' },
    'create-concurrency': { type: 'string', default: '32' },
    'admin-database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
    set: { type: 'string', multiple: true, default: [] },
    'cpu-prof': { type: 'string' },
    out: { type: 'string' },
  },
});
const count = Number(values.schedules);
const workerCount = Number(values.workers);
const log = (line: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${line}\n`);
const env = settingsOf(values.set);

// The target: records when each schedule's call arrives.
const arrivals = new Map<string, number[]>();
const target = http.createServer((req, res) => {
  const at = Date.now();
  const list = arrivals.get(req.url!) ?? [];
  list.push(at);
  arrivals.set(req.url!, list);
  res.end('ok');
});
await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
const targetPort = (target.address() as AddressInfo).port;

const dbName = `gleaner_bench_schedules_${Date.now()}`;
const admin = new pg.Client({ connectionString: values['admin-database-url'] });
await admin.connect();
await admin.query(`create database ${dbName}`);
const dbUrl = new URL(values['admin-database-url']);
dbUrl.pathname = `/${dbName}`;
const databaseUrl = dbUrl.toString();
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gleaner-bench-schedules-'));
const workers: RoleProcess[] = [];

try {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    OUTBOUND_ALLOW_ADDRESSES: `127.0.0.1:${targetPort}`,
  });
  const api = await createContainer(config, { role: 'api' });
  const team = await api.services.apiKeys.createTeam('bench');
  const actor = { teamId: team.id, via: 'api_key' as const };

  const due = new Date(Math.ceil((Date.now() + Number(values.lead) * 1000) / 60_000) * 60_000);
  const cron = `${due.getUTCMinutes()} ${due.getUTCHours()} * * ? *`;
  log(`creating ${count} schedules "${cron}" (UTC), due ${due.toISOString()}`);
  const createStarted = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: Number(values['create-concurrency']) }, async () => {
      while (next < count) {
        const i = next++;
        await api.services.schedules.create(actor, {
          method: 'GET',
          endpoint: `http://127.0.0.1:${targetPort}/s/${i}`,
          cron_expression: cron,
          expression_timezone: 'UTC',
        });
      }
    }),
  );
  const createSeconds = (Date.now() - createStarted) / 1000;
  log(`created in ${round(createSeconds, 1)} s; starting ${workerCount} worker processes`);
  for (let i = 0; i < workerCount; i++) {
    workers.push(
      await startRoleProcess({
        role: 'worker',
        dataDir,
        databaseUrl,
        env: { OUTBOUND_ALLOW_ADDRESSES: `127.0.0.1:${targetPort}`, LOG_LEVEL: 'info', ...env },
        ...(values['cpu-prof'] ? { cpuProfileDir: path.resolve(values['cpu-prof']) } : {}),
      }),
    );
  }
  if (Date.now() > due.getTime() - 5000) throw new Error(`too slow to be ready before the due time: raise --lead`);
  log(`workers ready; waiting for ${due.toISOString()}`);

  const stats = async () => {
    const { rows } = await admin.query(
      `select xact_commit + xact_rollback as xacts, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted,
              blks_read, blks_hit from pg_stat_database where datname = $1`,
      [dbName],
    );
    return rows[0] as Record<string, string>;
  };
  await new Promise((r) => setTimeout(r, due.getTime() - 2000 - Date.now()));
  const pids = workers.flatMap((w) => [w.pid, ...descendants(w.pid)]);
  const cpuBefore = readTreeCpuTime(pids);
  const before = await stats();
  const windowStart = Date.now();
  let done = 0;
  const conn = api.db.orm.em.getConnection();
  while (Date.now() - due.getTime() < 300_000) {
    const [row] = await conn.execute<{ n: number }[]>(
      `select count(*)::int as n from schedule_runs where status <> 'running'`,
    );
    done = row!.n;
    if (done >= count) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const windowEnd = Date.now();
  const after = await stats();
  const cpu = cpuDelta(cpuBefore, readTreeCpuTime(pids));
  await new Promise((r) => setTimeout(r, 3000)); // any duplicate would show up now

  const runs = await conn.execute<{ schedule_id: string; n: number; late_ms: number; attempts: number }[]>(
    `select schedule_id, count(*)::int as n, max(extract(epoch from started_at - scheduled_for) * 1000)::float as late_ms,
            max(attempts)::int as attempts
     from schedule_runs group by schedule_id`,
  );
  const byStatus = await conn.execute<{ status: string; n: number }[]>(
    `select status, count(*)::int as n from schedule_runs group by 1 order by 1`,
  );
  const failures = await conn.execute<{ error: string; n: number }[]>(
    `select coalesce(error, '') as error, count(*)::int as n from schedule_runs where status = 'failed'
     group by 1 order by 2 desc limit 5`,
  );
  const calls = [...arrivals.values()];
  const arrivalLate = calls.map((list) => list[0]! - due.getTime());
  const result = {
    startedAt: new Date(windowStart).toISOString(),
    machine: { cpus: os.cpus().length, load: os.loadavg().map((l) => round(l, 1)) },
    schedules: count,
    workers: workerCount,
    settings: env,
    createSeconds: round(createSeconds, 1),
    due: due.toISOString(),
    allFiredAfterMs: windowEnd - due.getTime(),
    runsByStatus: Object.fromEntries(byStatus.map((r) => [r.status, r.n])),
    schedulesWithRuns: runs.length,
    schedulesWithMoreThanOneRun: runs.filter((r) => r.n > 1).length,
    runsTakenOver: runs.filter((r) => r.attempts > 1).length,
    failures: Object.fromEntries(failures.map((f) => [f.error.slice(0, 200), f.n])),
    targetsCalled: calls.length,
    targetsCalledMoreThanOnce: calls.filter((l) => l.length > 1).length,
    latenessStartMs: summarise(runs.map((r) => r.late_ms)),
    latenessArrivalMs: summarise(arrivalLate),
    database: {
      windowSeconds: round((windowEnd - windowStart) / 1000, 1),
      transactions: Number(after.xacts) - Number(before.xacts),
      rowsInserted: Number(after.tup_inserted) - Number(before.tup_inserted),
      rowsUpdated: Number(after.tup_updated) - Number(before.tup_updated),
      rowsDeleted: Number(after.tup_deleted) - Number(before.tup_deleted),
      rowsReturned: Number(after.tup_returned) - Number(before.tup_returned),
      rowsFetched: Number(after.tup_fetched) - Number(before.tup_fetched),
      blocksRead: Number(after.blks_read) - Number(before.blks_read),
      blocksHit: Number(after.blks_hit) - Number(before.blks_hit),
    },
    workerCpuMs: { user: round(cpu.userMs, 0), system: round(cpu.systemMs, 0), total: round(cpu.totalMs, 0) },
  };
  const stem = values.out ?? `schedules-${result.startedAt.slice(0, 19).replace(/[:T]/g, '-')}`;
  await fs.mkdir(RESULTS_DIR, { recursive: true });
  await fs.writeFile(path.join(RESULTS_DIR, `${stem}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const md = renderReport(result);
  await fs.writeFile(path.join(RESULTS_DIR, `${stem}.md`), md);
  process.stdout.write(md);
  await api.close();
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
  await admin.end();
  target.close();
  await fs.rm(dataDir, { recursive: true, force: true });
}

function renderReport(r: {
  schedules: number;
  workers: number;
  createSeconds: number;
  due: string;
  allFiredAfterMs: number;
  runsByStatus: Record<string, number>;
  schedulesWithRuns: number;
  schedulesWithMoreThanOneRun: number;
  runsTakenOver: number;
  failures: Record<string, number>;
  targetsCalled: number;
  targetsCalledMoreThanOnce: number;
  latenessStartMs: ReturnType<typeof summarise>;
  latenessArrivalMs: ReturnType<typeof summarise>;
  database: Record<string, number>;
  workerCpuMs: Record<string, number>;
  machine: { cpus: number; load: number[] };
}): string {
  const l = (s: ReturnType<typeof summarise>) =>
    `${round(s.median / 1000, 2)} s | ${round(s.p99 / 1000, 2)} s | ${round(s.max / 1000, 2)} s`;
  const db = r.database;
  return [
    `# Schedules: ${r.schedules} due at ${r.due}, ${r.workers} worker processes`,
    '',
    `Machine: ${r.machine.cpus} CPUs, load ${r.machine.load.join(' / ')} at the end. Created in ${r.createSeconds} s.`,
    '',
    `- runs: ${JSON.stringify(r.runsByStatus)}; schedules with a run ${r.schedulesWithRuns}, with more than one ${r.schedulesWithMoreThanOneRun}; runs taken over ${r.runsTakenOver}`,
    ...(Object.keys(r.failures).length ? [`- failed runs: ${JSON.stringify(r.failures)}`] : []),
    `- targets called ${r.targetsCalled}, more than once ${r.targetsCalledMoreThanOnce}`,
    `- every run recorded ${round(r.allFiredAfterMs / 1000, 1)} s after the due time`,
    '',
    '| lateness | p50 | p99 | max |',
    '|---|---|---|---|',
    `| run started − due | ${l(r.latenessStartMs)} |`,
    `| call arrived − due | ${l(r.latenessArrivalMs)} |`,
    '',
    `Database, firing window of ${db.windowSeconds} s: ${db.transactions} transactions (${round((db.transactions ?? 0) / r.schedules, 1)} per schedule), rows inserted ${db.rowsInserted}, updated ${db.rowsUpdated}, deleted ${db.rowsDeleted}, returned ${db.rowsReturned}, fetched ${db.rowsFetched}; blocks hit ${db.blocksHit}, read ${db.blocksRead}.`,
    `Worker processes' CPU: ${r.workerCpuMs.total} ms (user ${r.workerCpuMs.user}, system ${r.workerCpuMs.system}).`,
    '',
  ].join('\n');
}
