import { setTimeout as sleep } from 'node:timers/promises';

/** Retries with exponential backoff: `baseDelayMs`, twice that, four times… never above `maxDelayMs`. */
export interface RetryPolicy {
  /** Retries after the first attempt (0: none). */
  maxRetries: number;
  baseDelayMs: number;
  /** Cap on any wait, a server's Retry-After included. */
  maxDelayMs: number;
}

/** What the classifier says about a failure. */
export interface RetryVerdict {
  retry: boolean;
  /** A wait the server asked for (Retry-After); used instead of the backoff, within the cap. */
  afterMs?: number | null;
}

export interface RetryEvent {
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  error: unknown;
}

export interface RetryOptions {
  /** Aborting it stops waiting and rejects with its reason. */
  signal?: AbortSignal;
  onRetry?: (event: RetryEvent) => void;
}

/**
 * Runs `attempt` until it succeeds, `classify` says the failure is final, or the retries are
 * spent; then rethrows the last failure. Backoff waits carry ±25 % jitter so clients that
 * failed together do not retry together; a server's Retry-After is honoured exactly (capped).
 *
 * @example
 * await withRetries((n) => callServer(), policy, (err) => ({ retry: isTransient(err) }), { signal });
 */
export async function withRetries<T>(
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy,
  classify: (error: unknown) => RetryVerdict,
  options: RetryOptions = {},
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      options.signal?.throwIfAborted();
      const verdict = classify(error);
      if (!verdict.retry || n > policy.maxRetries) throw error;
      const delayMs = retryDelay(n, policy, verdict.afterMs ?? null);
      options.onRetry?.({ attempt: n, delayMs, error });
      // An aborted wait rejects with the signal's reason, like every other abort here.
      await sleep(delayMs, undefined, { signal: options.signal }).catch((err: unknown) => {
        options.signal?.throwIfAborted();
        throw err;
      });
    }
  }
}

/** The wait before retry number `attempt` (from 1). */
export function retryDelay(attempt: number, policy: RetryPolicy, afterMs: number | null): number {
  if (afterMs !== null && afterMs >= 0) return Math.min(afterMs, policy.maxDelayMs);
  const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
  const jittered = backoff * (0.75 + Math.random() * 0.5);
  return Math.round(Math.min(jittered, policy.maxDelayMs));
}

/**
 * Milliseconds a response asks to wait: `retry-after-ms` (OpenAI's), else `Retry-After` as
 * seconds or an HTTP date. Null when absent or unreadable.
 */
export function retryAfterMs(headers: Record<string, string | undefined> | undefined, now = Date.now()): number | null {
  if (!headers) return null;
  const ms = Number(headers['retry-after-ms']);
  if (headers['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after']?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
