import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
import { toMonitorRecord, type LastRun, type MonitorRecord } from './monitor-record.js';
import type { PageState } from './monitor-baseline.js';
import type { FoundEvent } from './monitor-events.js';
import type { RunResult } from './monitor-runner.js';

const j = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** SQL of the monitor tables: every statement in the caller's unit of work (`em`). */
export const monitorStore = {
  async insert(em: EntityManager, m: MonitorRecord): Promise<void> {
    await exec(
      em,
      `insert into monitors (id, team_id, status, query, tracked, plan_explanation, source_policy, frequency, cron,
         next_run_at, notification, webhook, output_schema, detection, metadata, channel_state, error_message, last_run,
         agent_id, mermaid_diagram, created_at, updated_at)
       values (?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, '{}', null, null, ?, ?, ?, ?)`,
      [
        m.id,
        m.teamId,
        m.status,
        m.query,
        j(m.tracked),
        m.planExplanation,
        j(m.sourcePolicy),
        m.frequency,
        m.cron,
        m.nextRunAt,
        j(m.notification),
        j(m.webhook),
        j(m.outputSchema),
        j(m.detection),
        j(m.metadata),
        m.agentId,
        m.mermaidDiagram,
        m.createdAt,
        m.updatedAt,
      ],
    );
  },

  /** A monitor of the team that is not deleted; `lock` takes its row for the transaction. */
  async find(em: EntityManager, teamId: string | null, id: string, lock = false): Promise<MonitorRecord | null> {
    const [row] = await exec(
      em,
      `select * from monitors where id = ? and status <> 'deleted'${teamId ? ' and team_id = ?' : ''}${lock ? ' for update' : ''}`,
      teamId ? [id, teamId] : [id],
    );
    return row ? toMonitorRecord(row) : null;
  },

  async list(
    em: EntityManager,
    teamId: string,
    offset: number,
    limit: number,
  ): Promise<{ rows: MonitorRecord[]; total: number }> {
    const rows = await exec(
      em,
      `select *, count(*) over () as total from monitors where team_id = ? and status <> 'deleted'
       order by created_at desc, id desc limit ? offset ?`,
      [teamId, limit, offset],
    );
    return { rows: rows.map(toMonitorRecord), total: Number(rows[0]?.total ?? 0) };
  },

  async update(em: EntityManager, id: string, fields: Record<string, unknown>): Promise<void> {
    const names = Object.keys(fields);
    if (names.length === 0) return;
    const sets = names.map((n) => (JSON_COLUMNS.has(n) ? `${n} = ?::jsonb` : `${n} = ?`));
    const values = names.map((n) => (JSON_COLUMNS.has(n) ? j(fields[n]) : fields[n]));
    await exec(em, `update monitors set ${sets.join(', ')}, updated_at = now() where id = ?`, [...values, id]);
  },

  async eventCounts(em: EntityManager, ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await exec<{ monitor_id: string; n: string }>(
      em,
      `select monitor_id, count(*) as n from monitor_events where monitor_id in (${ids.map(() => '?').join(', ')}) group by monitor_id`,
      [...ids],
    );
    return new Map(rows.map((r) => [r.monitor_id, Number(r.n)]));
  },

  async pageStates(em: EntityManager, monitorId: string): Promise<Map<string, PageState>> {
    const rows = await exec(em, `select * from monitor_pages where monitor_id = ?`, [monitorId]);
    return new Map(
      rows.map((r) => [
        r.source as string,
        {
          source: r.source as string,
          etag: (r.etag as string | null) ?? null,
          lastModified: (r.last_modified as string | null) ?? null,
          engine: (r.engine as string | null) ?? null,
          snapshotKey: (r.snapshot_key as string | null) ?? null,
          fingerprint: (r.fingerprint as string | null) ?? null,
          data: r.data ?? null,
        },
      ]),
    );
  },

  /** A run queued by "run now" (its job runs it). */
  async queueRun(em: EntityManager, run: { id: string; monitorId: string; teamId: string }): Promise<void> {
    await exec(
      em,
      `insert into monitor_runs (id, monitor_id, team_id, trigger, status) values (?, ?, ?, 'manual', 'queued')`,
      [run.id, run.monitorId, run.teamId],
    );
  },

  /** Records a run's outcome: the run, its sources' states, its events, and the monitor's last_run. */
  async recordRun(
    em: EntityManager,
    monitor: MonitorRecord,
    result: RunResult,
    run: { trigger: string; scheduledFor: Date | null },
  ): Promise<LastRun> {
    await exec(
      em,
      `insert into monitor_runs (id, monitor_id, team_id, trigger, status, scheduled_for, change_detected, pages, summary, error,
         started_at, finished_at)
       values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)
       on conflict (id) do update set status = excluded.status, change_detected = excluded.change_detected,
         pages = excluded.pages, summary = excluded.summary, error = excluded.error,
         started_at = excluded.started_at, finished_at = excluded.finished_at`,
      [
        result.runId,
        monitor.id,
        monitor.teamId,
        run.trigger,
        result.status,
        run.scheduledFor,
        result.changeDetected,
        j(result.pages),
        result.summary,
        result.error,
        result.startedAt,
        result.finishedAt,
      ],
    );
    for (const state of result.states) {
      await exec(
        em,
        `insert into monitor_pages (monitor_id, source, etag, last_modified, engine, snapshot_key, fingerprint, data, fetched_at)
         values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, now())
         on conflict (monitor_id, source) do update set etag = excluded.etag, last_modified = excluded.last_modified,
           engine = excluded.engine, snapshot_key = excluded.snapshot_key, fingerprint = excluded.fingerprint,
           data = excluded.data, fetched_at = excluded.fetched_at`,
        [
          monitor.id,
          state.source,
          state.etag,
          state.lastModified,
          state.engine,
          state.snapshotKey,
          state.fingerprint,
          j(state.data),
        ],
      );
    }
    for (const event of result.events) await insertEvent(em, monitor, result.runId, event);
    const lastRun: LastRun = {
      id: result.runId,
      status: result.status,
      change_detected: result.changeDetected,
      ran_at: result.finishedAt.toISOString(),
    };
    await exec(em, `update monitors set last_run = ?::jsonb, error_message = ?, updated_at = now() where id = ?`, [
      j(lastRun),
      result.error,
      monitor.id,
    ]);
    return lastRun;
  },
};

const JSON_COLUMNS = new Set([
  'tracked',
  'source_policy',
  'notification',
  'webhook',
  'metadata',
  'channel_state',
  'last_run',
]);

async function insertEvent(em: EntityManager, monitor: MonitorRecord, runId: string, e: FoundEvent): Promise<void> {
  await exec(
    em,
    `insert into monitor_events (id, monitor_id, team_id, run_id, type, changed, summary, snapshot_key, diff_key, data, data_changes, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, clock_timestamp())`,
    [
      e.id,
      monitor.id,
      monitor.teamId,
      runId,
      e.type,
      e.changed,
      e.summary,
      e.snapshotKey,
      e.diffKey,
      j(e.data),
      j(e.dataChanges),
    ],
  );
}
