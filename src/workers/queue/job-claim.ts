import { formatSql, type Row } from '../../db/sql.js';
import type { ClaimedJob } from './job-kind.js';

// The statements that take and keep jobs (JobQueue.claim, JobQueue.heartbeat) and what a claim
// returns, apart from the queue's lifecycle.

/** Candidates a claim looks at per job it wants: enough to step over hosts at their limit. */
const SCAN_FACTOR = 8;
const MIN_SCAN = 64;

/** How many queued candidates a claim of `max` jobs scans. */
export const claimScan = (max: number) => Math.max(max * SCAN_FACTOR, MIN_SCAN);

/**
 * Claims up to `max` of `scan` due candidates of a kind, oldest first by priority, keeping each
 * concurrency key under its limit. Parameters: kind, scan, kind, limit, limit, max, owner,
 * lease seconds.
 */
export const CLAIM_SQL = `
  with candidates as (
    select id, concurrency_key, priority, run_at, seq from jobs
    where kind = ? and status = 'queued' and run_at <= now()
    order by priority desc, run_at, seq limit ? for update skip locked
  ), running as (
    select concurrency_key, count(*)::int as n from jobs
    where kind = ? and status = 'running' and concurrency_key is not null
      and concurrency_key in (select concurrency_key from candidates)
    group by concurrency_key
  ), chosen as (
    select c.id from (
      select c.*, row_number() over (partition by c.concurrency_key order by c.priority desc, c.run_at, c.seq) as rn
      from candidates c
    ) c left join running r on r.concurrency_key = c.concurrency_key
    where c.concurrency_key is null or ?::int is null or c.rn + coalesce(r.n, 0) <= ?::int
    order by c.priority desc, c.run_at, c.seq limit ?
  )
  update jobs j set status = 'running', attempts = j.attempts + 1, lease_owner = ?,
    lease_expires_at = now() + make_interval(secs => ?), started_at = clock_timestamp()
  from chosen where j.id = chosen.id
  returning j.id, j.kind, j.team_id, j.payload, j.attempts, j.max_attempts, j.concurrency_key`;

/**
 * The claim of a kind with no per-key limit: the `max` oldest due jobs by priority, and only
 * they are locked (the limited claim locks `claimScan(max)` candidates to step over keys at
 * their limit, and counts running jobs per key). Parameters: kind, max, owner, lease seconds.
 */
export const CLAIM_FREE_SQL = `
  with chosen as (
    select id from jobs
    where kind = ? and status = 'queued' and run_at <= now()
    order by priority desc, run_at, seq limit ? for update skip locked
  )
  update jobs j set status = 'running', attempts = j.attempts + 1, lease_owner = ?,
    lease_expires_at = now() + make_interval(secs => ?), started_at = clock_timestamp()
  from chosen where j.id = chosen.id
  returning j.id, j.kind, j.team_id, j.payload, j.attempts, j.max_attempts, j.concurrency_key`;

/** A claimed row (`id, kind, team_id, payload, attempts, max_attempts, concurrency_key`) as a ClaimedJob. */
export function toClaimed<P>(r: Row, owner: string): ClaimedJob<P> {
  return {
    id: r.id as string,
    kind: r.kind as string,
    teamId: (r.team_id as string | null) ?? null,
    payload: (r.payload ?? {}) as P,
    attempts: r.attempts as number,
    maxAttempts: r.max_attempts as number,
    concurrencyKey: (r.concurrency_key as string | null) ?? null,
    owner,
  };
}

/**
 * The statement renewing `owner`'s leases on `ids` by `secs` (values written in, for the lease
 * connection's simple queries), locking in id order; `skip locked` passes over rows another
 * transaction holds, `wait` waits for them. Returns the ids renewed.
 */
export function renewSql(ids: readonly string[], owner: string, secs: number, locked: 'skip locked' | 'wait'): string {
  return formatSql(
    `update jobs j set lease_expires_at = now() + make_interval(secs => ?)
     from (select id from jobs where id in (${ids.map(() => '?').join(', ')}) and status = 'running'
             and lease_owner = ? order by id for update${locked === 'skip locked' ? ' skip locked' : ''}) as mine
     where j.id = mine.id returning j.id`,
    [secs, ...ids, owner],
  );
}

/** What completing a job sets (the lease given up, any earlier attempt's error cleared). */
const COMPLETED = `status = 'completed', finished_at = clock_timestamp(), lease_owner = null, lease_expires_at = null,
  error_code = null, error_message = null`;

/**
 * Completes job `?` if owner `?` still holds it; returns its id then. Statements that complete a
 * job together with their own writes use it as a CTE (`with done as (COMPLETE_SQL) …`).
 */
export const COMPLETE_SQL = `update jobs set ${COMPLETED} where id = ? and status = 'running' and lease_owner = ? returning id`;

/** Locks job `?` if owner `?` still holds its lease (`JobQueue.holds`; a CTE of statements that write under it). */
export const HOLDS_SQL = `select 1 from jobs where id = ? and lease_owner = ? and status = 'running' and lease_expires_at > now() for update`;

/** The running jobs among a list of (id, owner) whose owner is still theirs: `ownedParams` fills it. */
export const RUNNING_AS_OWNED = `select j.id from jobs j join jsonb_to_recordset(?::jsonb) as h(id text, owner text)
    on j.id = h.id and j.lease_owner = h.owner
  where j.id in (?) and j.status = 'running'`;

/** The parameters of RUNNING_AS_OWNED (and COMPLETE_ALL_SQL) for these jobs. */
export const ownedParams = (jobs: readonly Pick<ClaimedJob, 'id' | 'owner'>[]): unknown[] => [
  JSON.stringify(jobs.map(({ id, owner }) => ({ id, owner }))),
  jobs.map((j) => j.id),
];

/**
 * Completes the jobs among `ownedParams` whose owner still holds them (rows locked in id order),
 * as two CTEs, `held` and `done` (the ids completed): statements that record their outcomes
 * with them start `with ${COMPLETE_ALL_CTES}, …`.
 */
export const COMPLETE_ALL_CTES = `held as (${RUNNING_AS_OWNED} order by j.id for update of j),
  done as (update jobs j set ${COMPLETED} from held where j.id = held.id returning j.id)`;

/** `JobQueue.completeAll`: the ids it completed. */
export const COMPLETE_ALL_SQL = `with ${COMPLETE_ALL_CTES} select id from done`;
