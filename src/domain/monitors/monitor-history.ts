import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
import { errors } from '../../errors.js';
import { epochSeconds } from '../shared/time.js';
import { fieldError } from './field-error.js';
import type { MonitorNotifier } from './monitor-notifier.js';
import { MONITOR_LIMITS } from './monitor.schema.js';
import type { MonitorEventView, MonitorRunView } from './monitor.view.js';

export interface EventsPage {
  data: MonitorEventView[];
  hasMore: boolean;
  nextCursor: string | null;
  totalCount: number;
}

/**
 * A monitor's history as it is read back: its runs and its events (newest first, paged by an
 * opaque cursor, snapshots and diffs as signed URLs). The caller has checked the monitor is
 * the actor's.
 */
export const monitorHistory = {
  async run(em: EntityManager, monitorId: string, runId: string): Promise<MonitorRunView> {
    const [row] = await exec(em, `select * from monitor_runs where id = ? and monitor_id = ?`, [runId, monitorId]);
    if (!row) throw errors.notFound('run', runId);
    const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
    return {
      id: row.id as string,
      monitorId,
      trigger: row.trigger as string,
      status: row.status as string,
      scheduledFor: iso(row.scheduled_for),
      changeDetected: row.change_detected as boolean,
      summary: (row.summary as string | null) ?? null,
      error: (row.error as string | null) ?? null,
      pages: (row.pages as unknown[]) ?? [],
      created: epochSeconds(new Date(row.created_at as string)),
      startedAt: iso(row.started_at),
      finishedAt: iso(row.finished_at),
    };
  },

  async events(
    em: EntityManager,
    monitorId: string,
    query: { limit?: number; cursor?: string; countOnly?: boolean },
    urls: Pick<MonitorNotifier, 'signed'>,
  ): Promise<EventsPage> {
    const [count] = await exec<{ n: string }>(em, `select count(*) as n from monitor_events where monitor_id = ?`, [
      monitorId,
    ]);
    const totalCount = Number(count?.n ?? 0);
    if (query.countOnly) return { data: [], hasMore: false, nextCursor: null, totalCount };
    const limit = query.limit ?? MONITOR_LIMITS.eventsPage.default;
    const after = query.cursor ? readCursor(query.cursor) : null;
    const rows = await exec(
      em,
      `select * from monitor_events where monitor_id = ?${
        after
          ? ' and (created_at, id) < (select created_at, id from monitor_events where id = ? and monitor_id = ?)'
          : ''
      } order by created_at desc, id desc limit ?`,
      after ? [monitorId, after, monitorId, limit + 1] : [monitorId, limit + 1],
    );
    const page = rows.slice(0, limit);
    const data = await Promise.all(page.map((r) => eventView(r, urls)));
    const last = page[page.length - 1];
    return {
      data,
      hasMore: rows.length > limit,
      nextCursor: rows.length > limit && last ? writeCursor(last.id as string) : null,
      totalCount,
    };
  },
};

async function eventView(r: Record<string, unknown>, urls: Pick<MonitorNotifier, 'signed'>): Promise<MonitorEventView> {
  const snapshotKey = r.snapshot_key as string | null;
  const diffKey = r.diff_key as string | null;
  return {
    id: r.id as string,
    monitorId: r.monitor_id as string,
    runId: r.run_id as string,
    type: r.type as string,
    created: epochSeconds(new Date(r.created_at as string)),
    changed: r.changed as boolean,
    summary: r.summary as string,
    snapshotUrl: snapshotKey ? await urls.signed(snapshotKey) : null,
    diffUrl: diffKey ? await urls.signed(diffKey) : null,
    data: r.data ?? null,
    dataChanges: (r.data_changes as unknown[] | null) ?? null,
  };
}

function writeCursor(id: string): string {
  return Buffer.from(id).toString('base64url');
}

function readCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (/^event_[a-z0-9]{1,60}$/.test(id)) return id;
  throw fieldError('cursor', 'is not a cursor this endpoint returned (use next_cursor)');
}
