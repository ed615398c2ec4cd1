import type { JobKindSpec } from '../../workers/queue/job-kind.js';
import type { JobHandler } from '../../workers/queue/job-worker.js';
import { ANSWER_JOB, markFailed, type AnswerRunner } from './answer-run.js';

/** Attempts of an answer whose runner died (a failed answer is not retried: it ends failed). */
const ANSWER_MAX_ATTEMPTS = 3;

/** The answer kind: one job per answer (its id is the answer's), claimed by the API at once or by a worker. */
export function answerRunKind(leaseMs: number): JobKindSpec {
  return {
    kind: ANSWER_JOB,
    maxAttempts: ANSWER_MAX_ATTEMPTS,
    leaseMs,
    backoff: () => 1000,
    onFailed: (em, job, error) => markFailed(em, job.id, error.code, error.message),
  };
}

/** A worker runs an answer the API could not finish (it stopped or died while running it). */
export function answerRunHandler(runner: AnswerRunner): JobHandler {
  return async (job, { signal }) => {
    await runner.run(job, signal);
  };
}
