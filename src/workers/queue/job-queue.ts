import type { EntityManager } from '@mikro-orm/postgresql';
import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { ClaimedJob, FailedJob, JobError, JobFigures, JobKindSpec, NewJob } from './job-kind.js';
import {
  CLAIM_FREE_SQL,
  CLAIM_SQL,
  COMPLETE_ALL_SQL,
  COMPLETE_SQL,
  HOLDS_SQL,
  ownedParams,
  RUNNING_AS_OWNED,
  claimScan,
  renewSql,
  toClaimed,
} from './job-claim.js';
import { cancelJobs, wasCancelled } from './job-cancel.js';
import { jobFigures, pendingKinds, purgeFinishedJobs, reapExpiredLeases } from './job-reports.js';
import type { LeaseConnection } from './lease-connection.js';

export interface JobQueueOptions {
  /** A connection of its own for lease renewals (else they share the ORM's pool). */
  leases?: LeaseConnection;
}

/**
 * The one durable job queue: every kind of background work is a row of `jobs`, in Postgres
 * (the server or the embedded one alike). A job is claimed with FOR UPDATE SKIP LOCKED under a
 * lease its worker renews; every step after the claim is conditional on still holding the
 * lease, so a job ends exactly once even when its worker dies and another claims it again.
 *
 * - delayed jobs: `run_at`; retries wait out the kind's backoff (with ±20 % jitter);
 * - unique keys: the job id (a second job with an id already queued is not added);
 * - per-key concurrency: jobs sharing a `concurrency_key` (a host) run at most the kind's
 *   `concurrencyLimit` at once across every worker (claims of such a kind are serialised by a
 *   transaction-scoped advisory lock, so the limit holds exactly);
 * - priorities, then `run_at`, then the order queued;
 * - expired leases come back (`reap`); a job whose lease expired on its last attempt fails
 *   (`worker_lost`), so work that kills its workers cannot loop; failed jobs stay for inspection;
 * - cancelling (`cancel`): queued and running jobs end `cancelled`, and a worker running one
 *   records nothing more for it.
 *
 * Handlers finish their job inside their own transaction (`complete`, `retry`, `fail` take the
 * transaction's entity manager), so the job and the domain rows it changes commit together.
 */
export class JobQueue {
  private readonly kinds = new Map<string, JobKindSpec>();

  constructor(
    private readonly orm: Orm,
    kinds: readonly JobKindSpec[] = [],
    private readonly options: JobQueueOptions = {},
  ) {
    for (const spec of kinds) this.define(spec);
  }

  /** Declares a kind (modules do, as their services are built: a kind's `onFailed` needs them). */
  define(spec: JobKindSpec): void {
    if (this.kinds.has(spec.kind)) throw new Error(`job kind "${spec.kind}" is declared twice`);
    this.kinds.set(spec.kind, spec);
  }

  /** Every kind this queue knows. */
  kindNames(): string[] {
    return [...this.kinds.keys()];
  }

  spec(kind: string): JobKindSpec {
    const spec = this.kinds.get(kind);
    if (!spec) throw new Error(`unknown job kind "${kind}" (known: ${this.kindNames().join(', ')})`);
    return spec;
  }

  /** Runs `fn` in a transaction of its own (for `complete`, `retry` and `fail` with a job's domain writes). */
  transaction<T>(fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.orm.em.fork().transactional(fn);
  }

  /** Queues jobs (in `em`'s transaction when given); returns how many were new (ids already queued are skipped). */
  async enqueue(jobs: readonly NewJob[], em: EntityManager = this.orm.em.fork()): Promise<number> {
    if (jobs.length === 0) return 0;
    const rows = jobs.map((job) => ({
      id: job.id,
      kind: job.kind,
      team_id: job.teamId ?? null,
      payload: job.payload ?? {},
      priority: job.priority ?? 0,
      run_at: (job.runAt ?? null)?.toISOString() ?? null,
      concurrency_key: job.concurrencyKey ?? null,
      max_attempts: job.maxAttempts ?? this.spec(job.kind).maxAttempts,
    }));
    const inserted = await exec<{ n: number }>(
      em,
      `with added as (
         insert into jobs (id, kind, team_id, payload, priority, run_at, concurrency_key, max_attempts)
         select e.value->>'id', e.value->>'kind', e.value->>'team_id', coalesce(e.value->'payload', '{}'::jsonb),
                (e.value->>'priority')::int, coalesce((e.value->>'run_at')::timestamptz, now()),
                e.value->>'concurrency_key', (e.value->>'max_attempts')::int
         from jsonb_array_elements(?::jsonb) with ordinality as e(value, n)
         order by e.n
         on conflict (id) do nothing returning 1)
       select count(*)::int as n from added`,
      [JSON.stringify(rows)],
    );
    return inserted[0]?.n ?? 0;
  }

  /** Claims up to `max` due jobs of `kind` for `owner`, keeping each concurrency key under its limit. */
  async claim<P = Record<string, unknown>>(kind: string, owner: string, max: number): Promise<ClaimedJob<P>[]> {
    if (max <= 0) return [];
    const spec = this.spec(kind);
    const limit = spec.concurrencyLimit;
    const leaseSecs = spec.leaseMs / 1000;
    const rows =
      limit === undefined
        ? await exec(this.orm.em.fork(), CLAIM_FREE_SQL, [kind, max, owner, leaseSecs])
        : await this.orm.em.fork().transactional(async (em) => {
            // Two claims counting the same key's running jobs at once could both take its last slot.
            await exec(em, 'select pg_advisory_xact_lock(hashtext(?))', [`jobs:${kind}`]);
            return exec(em, CLAIM_SQL, [kind, claimScan(max), kind, limit, limit, max, owner, leaseSecs]);
          });
    return rows.map((r) => toClaimed<P>(r, owner));
  }

  /**
   * Claims one queued job of `kind` by its id for `owner` (in `em`'s transaction when given),
   * due or not: a process that queued work and starts it at once (an answer the API begins
   * while its client waits) holds it under a lease like any worker, so if that process dies the
   * job comes back to the queue. Null when the job is not queued (another worker took it).
   */
  async claimById<P = Record<string, unknown>>(
    kind: string,
    id: string,
    owner: string,
    em: EntityManager = this.orm.em.fork(),
  ): Promise<ClaimedJob<P> | null> {
    const [row] = await exec(
      em,
      `update jobs set status = 'running', attempts = attempts + 1, lease_owner = ?,
         lease_expires_at = now() + make_interval(secs => ?), started_at = clock_timestamp()
       where id = ? and kind = ? and status = 'queued'
       returning id, kind, team_id, payload, attempts, max_attempts, concurrency_key`,
      [owner, this.spec(kind).leaseMs / 1000, id, kind],
    );
    return row ? toClaimed<P>(row, owner) : null;
  }

  /**
   * Renews the leases `owner` holds; returns the ids it no longer holds. Rows another
   * transaction has locked (a group recording its jobs) are renewed after the others, each
   * statement locking in id order as those groups do: one statement waiting on a row while it
   * held the rows it had renewed kept the groups recording those waiting too (renewals waited
   * 1.8 s in all in a burst of 10,000 schedule firings).
   */
  async heartbeat(owner: string, jobs: readonly Pick<ClaimedJob, 'id' | 'kind'>[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    const byKind = new Map<string, string[]>();
    for (const job of jobs) byKind.set(job.kind, [...(byKind.get(job.kind) ?? []), job.id]);
    const held = new Set<string>();
    for (const [kind, ids] of byKind) {
      const secs = this.spec(kind).leaseMs / 1000;
      const renewed = await this.renew(renewSql(ids, owner, secs, 'skip locked'));
      const waiting = ids.filter((id) => !renewed.has(id));
      const late = waiting.length > 0 ? await this.renew(renewSql(waiting, owner, secs, 'wait')) : new Set<string>();
      for (const id of [...renewed, ...late]) held.add(id);
    }
    return jobs.filter((job) => !held.has(job.id)).map((job) => job.id);
  }

  /** Runs a renewal on the lease connection when there is one; the ids renewed. */
  private async renew(sql: string): Promise<Set<string>> {
    const rows = this.options.leases
      ? await this.options.leases.query<{ id: string }>(sql)
      : await exec<{ id: string }>(this.orm.em.fork(), sql);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Locks the job's row if `owner` still holds its lease (a long job checks this in each of its
   * transactions, so a worker that lost its job writes nothing). False otherwise.
   */
  async holds(em: EntityManager, jobId: string, owner: string): Promise<boolean> {
    const rows = await exec(em, HOLDS_SQL, [jobId, owner]);
    return rows.length > 0;
  }

  /**
   * `holds` for many jobs in one statement: locks the rows of those whose lease their owner
   * still holds (in id order, so two transactions locking overlapping sets wait rather than
   * deadlock) and returns their ids.
   */
  async holdsAll(em: EntityManager, jobs: readonly Pick<ClaimedJob, 'id' | 'owner'>[]): Promise<Set<string>> {
    if (jobs.length === 0) return new Set();
    const rows = await exec<{ id: string }>(
      em,
      `${RUNNING_AS_OWNED} and j.lease_expires_at > now() order by j.id for update of j`,
      ownedParams(jobs),
    );
    return new Set(rows.map((r) => r.id));
  }

  /** `complete` for many jobs in one statement (rows locked in id order); the ids it completed. */
  async completeAll(em: EntityManager, jobs: readonly Pick<ClaimedJob, 'id' | 'owner'>[]): Promise<Set<string>> {
    if (jobs.length === 0) return new Set();
    const rows = await exec<{ id: string }>(em, COMPLETE_ALL_SQL, ownedParams(jobs));
    return new Set(rows.map((r) => r.id));
  }

  /** Ends the job as done, in `em`'s transaction; false when `job.owner` lost its lease meanwhile. */
  async complete(em: EntityManager, job: Pick<ClaimedJob, 'id' | 'owner'>): Promise<boolean> {
    const rows = await exec(em, COMPLETE_SQL, [job.id, job.owner]);
    return rows.length > 0;
  }

  /**
   * Puts the job back after a failure that another attempt may cure, due after `delayMs` (default:
   * the kind's backoff for this attempt, ±20 %). False when the lease was lost meanwhile.
   */
  async retry<P>(em: EntityManager, job: ClaimedJob<P>, error: JobError, delayMs?: number): Promise<boolean> {
    const wait = delayMs ?? this.spec(job.kind).backoff(job.attempts) * (0.8 + Math.random() * 0.4);
    const rows = await exec(
      em,
      `update jobs set status = 'queued', lease_owner = null, lease_expires_at = null,
         run_at = now() + make_interval(secs => ?), error_code = ?, error_message = ?
       where id = ? and status = 'running' and lease_owner = ? returning id`,
      [Math.max(0, wait) / 1000, error.code, error.message.slice(0, 2000), job.id, job.owner],
    );
    return rows.length > 0;
  }

  /**
   * Fails the job for good in `em`'s transaction and runs its kind's `onFailed` there. `owner`
   * null fails it only if its lease expired (the reaper). Null when the job was not in that
   * state; otherwise what `onFailed` returned.
   */
  async fail(
    em: EntityManager,
    jobId: string,
    owner: string | null,
    error: JobError,
  ): Promise<{ outcome: unknown } | null> {
    const holder = owner === null ? 'lease_expires_at < now()' : 'lease_owner = ?';
    const [row] = await exec(
      em,
      `update jobs set status = 'failed', finished_at = clock_timestamp(), lease_owner = null, lease_expires_at = null,
         error_code = ?, error_message = ?
       where id = ? and status = 'running' and ${holder}
       returning id, kind, team_id, payload, attempts`,
      [error.code, error.message.slice(0, 2000), jobId, ...(owner === null ? [] : [owner])],
    );
    if (!row) return null;
    const failed: FailedJob = {
      id: row.id as string,
      kind: row.kind as string,
      teamId: (row.team_id as string | null) ?? null,
      payload: (row.payload as Record<string, unknown> | null) ?? {},
      attempts: row.attempts as number,
    };
    return { outcome: await this.spec(failed.kind).onFailed?.(em, failed, error) };
  }

  /** Cancels the queued or running jobs among `ids` in `em`'s transaction (see `cancelJobs`); the ids cancelled. */
  cancel(em: EntityManager, ids: readonly string[]): Promise<string[]> {
    return cancelJobs(em, ids);
  }

  /** Whether job `id` was cancelled. */
  wasCancelled(id: string): Promise<boolean> {
    return wasCancelled(this.orm.em.fork(), id);
  }

  /** Gives jobs back without counting the attempt (a worker shutting down). */
  async release(owner: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await exec(
      this.orm.em.fork(),
      `update jobs set status = 'queued', lease_owner = null, lease_expires_at = null,
         attempts = greatest(attempts - 1, 0), run_at = now()
       where id in (?) and status = 'running' and lease_owner = ?`,
      [ids, owner],
    );
  }

  /**
   * Puts a job (back) on the queue from scratch, attempts at 0: a redelivery. Creates it when it
   * is gone. False when it is running right now.
   */
  async restart(em: EntityManager, job: NewJob): Promise<boolean> {
    const rows = await exec(
      em,
      `insert into jobs (id, kind, team_id, payload, priority, run_at, concurrency_key, max_attempts)
       values (?, ?, ?, ?, ?, now(), ?, ?)
       on conflict (id) do update set status = 'queued', attempts = 0, run_at = now(), lease_owner = null,
         lease_expires_at = null, error_code = null, error_message = null, finished_at = null,
         payload = excluded.payload, max_attempts = excluded.max_attempts
       where jobs.status <> 'running'
       returning id`,
      [
        job.id,
        job.kind,
        job.teamId ?? null,
        JSON.stringify(job.payload ?? {}),
        job.priority ?? 0,
        job.concurrencyKey ?? null,
        job.maxAttempts ?? this.spec(job.kind).maxAttempts,
      ],
    );
    return rows.length > 0;
  }

  /**
   * Returns jobs of `kinds` whose worker stopped renewing their lease to the queue, and fails
   * those whose lease expired on their last attempt (`worker_lost`). Safe from any number of
   * workers at once.
   */
  reap(kinds: readonly string[] = this.kindNames()): Promise<{ requeued: number; failed: number }> {
    return reapExpiredLeases(
      () => this.orm.em.fork(),
      kinds,
      (em, id, error) => this.fail(em, id, null, error),
    );
  }

  /** Kinds with work now or within `horizonMs` (running jobs count: their leases may expire here). One query. */
  pendingKinds(horizonMs: number, kinds: readonly string[] = this.kindNames()): Promise<Set<string>> {
    return pendingKinds(this.orm.em.fork(), horizonMs, kinds);
  }

  /** Counts per kind: queued, due, running, failed, and how long the oldest due job has waited. */
  figures(): Promise<JobFigures[]> {
    return jobFigures(this.orm.em.fork());
  }

  /** Deletes finished jobs: completed and cancelled ones before `completedBefore`, failed ones before `failedBefore`. */
  purge(completedBefore: Date, failedBefore: Date): Promise<number> {
    return purgeFinishedJobs(() => this.orm.em.fork(), completedBefore, failedBefore);
  }
}
