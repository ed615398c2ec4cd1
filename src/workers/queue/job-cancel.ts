import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';

/**
 * Ends jobs among `ids` that are queued or running as `cancelled` (their lease given up), in
 * `em`'s transaction; returns the ids it cancelled. Rows are locked in id order, as lease
 * renewals and groups lock them, so a cancel waits for them rather than deadlocking; a job
 * that ended meanwhile (its worker recorded it first) is left as it ended.
 *
 * A running job's worker is not interrupted here: its next lease renewal finds the job no
 * longer its own and aborts the handler's signal, and everything it tries to record before
 * then is refused, because every step after a claim is conditional on holding the lease
 * (`status = 'running' and lease_owner = owner`).
 */
export async function cancelJobs(em: EntityManager, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await exec<{ id: string }>(
    em,
    `update jobs j set status = 'cancelled', finished_at = clock_timestamp(), lease_owner = null, lease_expires_at = null
     from (select id from jobs where id in (select jsonb_array_elements_text(?::jsonb))
             and status in ('queued', 'running') order by id for update) as c
     where j.id = c.id returning j.id`,
    [JSON.stringify(ids)],
  );
  return rows.map((r) => r.id);
}

/** Whether job `id` was cancelled (a worker whose record was refused asks, to clean up what it wrote outside the database). */
export async function wasCancelled(em: EntityManager, id: string): Promise<boolean> {
  const rows = await exec(em, `select 1 from jobs where id = ? and status = 'cancelled'`, [id]);
  return rows.length > 0;
}
