import type { Orm } from '../../db/orm.js';
import { exec } from '../../db/sql.js';
import type { JobKindSpec } from '../../workers/queue/job-kind.js';
import type { JobHandler } from '../../workers/queue/job-worker.js';
import type { CrawlProgress } from './crawl-progress.js';
import type { CrawlRecords } from './crawl-records.js';
import { CrawlRun, type CrawlRunDeps } from './crawl-run.js';
import { toClaimedCrawl } from './crawl-rows.js';

export const CRAWL_JOB = 'crawl.run';

/**
 * Times a crawl may be taken up again after its runner died before it fails for good. A
 * runner that stops gracefully gives its crawl back without using up an attempt.
 */
const CRAWL_MAX_ATTEMPTS = 20;

/** The crawl kind: one job per crawl (its id is the crawl's), leased to one runner while it runs. */
export function crawlRunKind(leaseMs: number, records: () => CrawlRecords, progress: () => CrawlProgress): JobKindSpec {
  return {
    kind: CRAWL_JOB,
    maxAttempts: CRAWL_MAX_ATTEMPTS,
    leaseMs,
    backoff: () => 1000,
    async onFailed(em, job, error) {
      const finished = await records().finishIn(
        em,
        job.id,
        'engine_error',
        `the crawl stopped: ${error.message} (${job.attempts} attempts)`,
      );
      if (finished) void progress().finished({ id: job.id, teamId: finished.teamId }, finished.counters);
    },
  };
}

export interface CrawlJobDeps extends CrawlRunDeps {
  orm: Orm;
}

/**
 * Runs a crawl while it holds the crawl's job: takes up what a previous holder left in flight,
 * then feeds the crawl engine from the frontier (CrawlRun) until the crawl completes, the lease
 * is lost or the worker stops. A crawl taken up again resumes from its frontier: pages already
 * recorded stay.
 */
export function crawlRunHandler(deps: CrawlJobDeps): JobHandler {
  return async (job, { signal, queue }) => {
    const [row] = await exec(
      deps.orm.em.fork(),
      `update crawls set runs = runs + 1 where id = ? and status = 'in_progress' returning *`,
      [job.id],
    );
    if (!row) {
      // Completed or gone while queued: nothing left to run.
      await queue.transaction((em) => queue.complete(em, job));
      return;
    }
    const crawl = toClaimedCrawl(row);
    await deps.frontier.requeueInFlight(crawl.id);
    if (crawl.runs > 1) deps.logger.info({ crawl: crawl.id, runs: crawl.runs }, 'resuming a crawl');
    await new CrawlRun(deps, crawl, job.owner, signal).execute();
  };
}
