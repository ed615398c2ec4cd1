import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
import type { JobError, JobFigures } from './job-kind.js';

// What the queue reports about itself and its housekeeping, apart from the lifecycle of a job
// (JobQueue): which kinds have work (the supervisor), figures per kind, reaping expired leases,
// purging finished jobs.

/** Kinds with work now or within `horizonMs` (running jobs count: their leases may expire here). One query. */
export async function pendingKinds(
  em: EntityManager,
  horizonMs: number,
  kinds: readonly string[],
): Promise<Set<string>> {
  if (kinds.length === 0) return new Set();
  const rows = await exec<{ kind: string }>(
    em,
    `select k.kind from jsonb_array_elements_text(?::jsonb) as k(kind)
     where exists (select 1 from jobs j where j.kind = k.kind and j.status = 'running')
        or exists (select 1 from jobs j where j.kind = k.kind and j.status = 'queued'
                     and j.run_at <= now() + make_interval(secs => ?))`,
    [JSON.stringify(kinds), Math.max(0, horizonMs) / 1000],
  );
  return new Set(rows.map((r) => r.kind));
}

/** Counts per kind: queued, due, running, failed, and how long the oldest due job has waited. */
export async function jobFigures(em: EntityManager): Promise<JobFigures[]> {
  const rows = await exec(
    em,
    `select kind,
       count(*) filter (where status = 'queued')::int as queued,
       count(*) filter (where status = 'queued' and run_at <= now())::int as due,
       count(*) filter (where status = 'running')::int as running,
       count(*) filter (where status = 'failed')::int as failed,
       coalesce(extract(epoch from now() - min(run_at) filter (where status = 'queued' and run_at <= now())), 0)::float
         as oldest_due_seconds
     from jobs group by kind order by kind`,
  );
  return rows.map((r) => ({
    kind: r.kind as string,
    queued: r.queued as number,
    due: r.due as number,
    running: r.running as number,
    failed: r.failed as number,
    oldestDueSeconds: Math.round((r.oldest_due_seconds as number) * 10) / 10,
  }));
}

/**
 * Deletes finished jobs, a thousand per statement: completed and cancelled ones before
 * `completedBefore`, failed ones before `failedBefore`.
 */
export async function purgeFinishedJobs(
  fork: () => EntityManager,
  completedBefore: Date,
  failedBefore: Date,
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await exec(
      fork(),
      `delete from jobs where id in (
         select id from jobs where (status in ('completed', 'cancelled') and finished_at < ?)
           or (status = 'failed' and finished_at < ?)
         limit 1000 for update skip locked)
       returning 1`,
      [completedBefore, failedBefore],
    );
    total += rows.length;
    if (rows.length < 1000) return total;
  }
}

/** Jobs failed for good per reap round (each in its own transaction, with its kind's hook). */
const REAP_BATCH = 500;

/**
 * Returns jobs of `kinds` whose worker stopped renewing their lease to the queue, and fails
 * those whose lease expired on their last attempt (`worker_lost`) through `fail`, each in a
 * transaction of its own (JobQueue.fail with no owner: only if the lease is still expired).
 * Safe from any number of workers at once.
 */
export async function reapExpiredLeases(
  fork: () => EntityManager,
  kinds: readonly string[],
  fail: (em: EntityManager, jobId: string, error: JobError) => Promise<unknown>,
): Promise<{ requeued: number; failed: number }> {
  if (kinds.length === 0) return { requeued: 0, failed: 0 };
  const requeued = await exec(
    fork(),
    `update jobs set status = 'queued', lease_owner = null, lease_expires_at = null, run_at = now()
     where id in (select id from jobs where kind in (?) and status = 'running' and lease_expires_at < now()
                    and attempts < max_attempts for update skip locked)
     returning id`,
    [kinds],
  );
  const exhausted = await exec<{ id: string; attempts: number }>(
    fork(),
    `select id, attempts from jobs where kind in (?) and status = 'running' and lease_expires_at < now()
       and attempts >= max_attempts limit ?`,
    [kinds, REAP_BATCH],
  );
  let failed = 0;
  for (const job of exhausted) {
    const error = {
      code: 'worker_lost',
      message: `the worker running this stopped responding on each of ${job.attempts} attempts`,
    };
    if (await fork().transactional((em) => fail(em, job.id, error))) failed++;
  }
  return { requeued: requeued.length, failed };
}
