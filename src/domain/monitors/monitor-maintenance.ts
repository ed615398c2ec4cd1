import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { MaintenanceTask } from '../../module/app-module.js';

/** Deleted monitors handled per maintenance round (the next round takes the rest). */
const DELETED_PER_ROUND = 200;

/**
 * The monitors' part of the hourly maintenance:
 * - a deleted monitor goes for good a day after its deletion: its objects (snapshots, diffs)
 *   and its rows (pages, runs, events cascade);
 * - runs older than `retentionDays` go (events, which say what changed, stay with their
 *   monitor; a run's snapshot that is still a baseline is an object, not part of the row).
 */
export function monitorMaintenance(orm: Orm, blobs: BlobStore, retentionDays: number): MaintenanceTask[] {
  return [
    async (now) => {
      const em = orm.em.fork();
      const gone = await exec<{ id: string; team_id: string }>(
        em,
        `select id, team_id from monitors where status = 'deleted' and deleted_at < ? order by deleted_at limit ?`,
        [new Date(now.getTime() - 86_400_000), DELETED_PER_ROUND],
      );
      for (const monitor of gone) {
        await blobs.deletePrefix(`monitors/${monitor.team_id}/${monitor.id}/`);
        await exec(em, `delete from monitors where id = ?`, [monitor.id]);
      }
      const runs = await exec(
        em,
        `delete from monitor_runs where created_at < ? and status in ('completed', 'failed', 'skipped') returning id`,
        [new Date(now.getTime() - retentionDays * 86_400_000)],
      );
      return { deletedMonitors: gone.length, monitorRuns: runs.length };
    },
  ];
}
