import { round } from '../measure/stats.js';

/** The fields of the spec's batch object this benchmark reads. */
export interface BatchJson {
  id: string;
  status: 'in_progress' | 'completed' | 'failed';
  total_urls: number;
  items_completed: number;
  items_failed: number;
  number_retried: number;
}

/** Items ended so far, `ms` after the POST was sent. */
export interface ProgressSample {
  ms: number;
  ended: number;
}

export interface BatchRun {
  batchId: string;
  items: number;
  /** Round trip of POST /v1/batches: validation, bulk insert, answer. */
  acceptMs: number;
  requestBytes: number;
  /** From sending the POST to the first GET that saw the batch completed (polled every `pollMs`). */
  completeMs: number;
  pollMs: number;
  itemsCompleted: number;
  itemsFailed: number;
  retried: number;
  /** Items per second, accept included: what a client sees. */
  itemsPerSecond: number;
  progress: ProgressSample[];
}

/**
 * The request body of a batch of markdown scrapes, the same options as the scrape benchmark's
 * single scrapes; `urls` are distinct (the same pages under several query strings).
 */
export function batchBody(urls: readonly string[]): string {
  return JSON.stringify({
    items: urls.map((url, i) => ({ custom_id: `item-${i}`, url })),
    formats: ['markdown'],
  });
}

/**
 * Creates a batch and polls GET /v1/batches/{id} until it is no longer in progress, timing
 * the accept and the completion from the client's side. Progress samples (at most one per
 * second kept) show whether the rate holds over the batch.
 */
export async function runBatch(
  origin: string,
  apiKey: string,
  urls: readonly string[],
  options: { pollMs?: number; timeoutMs?: number } = {},
): Promise<BatchRun> {
  const pollMs = options.pollMs ?? 250;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const body = batchBody(urls);
  const started = performance.now();
  const res = await fetch(`${origin}/v1/batches`, { method: 'POST', headers, body });
  const text = await res.text();
  const acceptMs = performance.now() - started;
  if (res.status !== 200 && res.status !== 201 && res.status !== 202) {
    throw new Error(`POST /v1/batches answered ${res.status}: ${text.slice(0, 500)}`);
  }
  let batch = JSON.parse(text) as BatchJson;
  const progress: ProgressSample[] = [{ ms: round(acceptMs, 0), ended: 0 }];
  const deadline = started + (options.timeoutMs ?? 6 * 3600_000);
  while (batch.status === 'in_progress') {
    if (performance.now() > deadline) throw new Error(`batch ${batch.id} still in progress after the timeout`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    const poll = await fetch(`${origin}/v1/batches/${batch.id}`, { headers });
    const polled = await poll.text();
    if (poll.status !== 200) throw new Error(`GET /v1/batches/${batch.id} answered ${poll.status}: ${polled}`);
    batch = JSON.parse(polled) as BatchJson;
    const ms = performance.now() - started;
    if (ms - progress[progress.length - 1]!.ms >= 1000 || batch.status !== 'in_progress') {
      progress.push({ ms: round(ms, 0), ended: batch.items_completed + batch.items_failed });
    }
  }
  const completeMs = performance.now() - started;
  return {
    batchId: batch.id,
    items: urls.length,
    acceptMs: round(acceptMs, 0),
    requestBytes: Buffer.byteLength(body),
    completeMs: round(completeMs, 0),
    pollMs,
    itemsCompleted: batch.items_completed,
    itemsFailed: batch.items_failed,
    retried: batch.number_retried,
    itemsPerSecond: round((1000 * urls.length) / completeMs, 2),
    progress,
  };
}

/**
 * Items per second between the moments `from` and `to` of the batch's items had ended (0.1 and
 * 0.9: the steady state, without the ramp-up and the tail where fewer items than slots remain).
 */
export function rateBetween(run: BatchRun, from: number, to: number): number {
  const at = (share: number) => run.progress.find((p) => p.ended >= share * run.items);
  const a = at(from);
  const b = at(to);
  if (!a || !b || b.ms <= a.ms) return NaN;
  return round((1000 * (b.ended - a.ended)) / (b.ms - a.ms), 2);
}
