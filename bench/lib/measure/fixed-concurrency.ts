/** What one measured phase produced: per-request latencies in completion order, wall time, failures. */
export interface PhaseResult {
  latenciesMs: number[];
  wallMs: number;
  failures: { index: number; message: string }[];
}

/**
 * Runs `task` over `items` with exactly `concurrency` in flight (closed loop: a worker starts the
 * next item when its last one finished), timing each. The same driver serves the reference loop
 * and the service's load generator, so both are measured the same way. A failed item is recorded,
 * not retried, and counts in the latencies (a fast failure must not look like throughput: callers
 * report failures and treat any as a failed run).
 */
export async function runFixedConcurrency<T>(
  items: readonly T[],
  concurrency: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<PhaseResult> {
  const latenciesMs: number[] = [];
  const failures: PhaseResult['failures'] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      const started = performance.now();
      try {
        await task(items[i]!, i);
      } catch (err) {
        failures.push({ index: i, message: (err as Error).message ?? String(err) });
      }
      latenciesMs.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return { latenciesMs, wallMs: performance.now() - started, failures };
}
