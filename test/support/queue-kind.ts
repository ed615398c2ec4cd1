import type { JobKindSpec } from '../../src/workers/queue/job-kind.js';

/** The job kind of the queue's own tests: two per concurrency key at once, 1 s leases. */
export const TEST_KIND: JobKindSpec = {
  kind: 'test.job',
  maxAttempts: 3,
  leaseMs: 1000,
  backoff: (attempt) => 50 * attempt,
  concurrencyLimit: 2,
};
