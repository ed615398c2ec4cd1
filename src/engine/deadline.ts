import { setMaxListeners } from 'node:events';
import { AppError, errors } from '../errors.js';

/**
 * One fetch's time budget joined with the caller's signal. Engines pass `signal` to every
 * step and, when a step fails, let `explain` say whether the failure was the budget running
 * out (504 `request_timeout`), the caller giving up (its abort reason), or something else.
 *
 * @example
 * const deadline = createDeadline(req.timeoutMs, signal);
 * try { return await work(deadline.signal); }
 * catch (err) { throw deadline.explain(err, `no complete response from ${host}`); }
 * finally { deadline.dispose(); }
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** True once the budget ran out (not when the caller aborted). */
  readonly expired: boolean;
  /**
   * The error to throw for `err`: a 504 when the budget ran out (`what` + "within N ms"),
   * the caller's reason when it aborted, otherwise `err` unchanged.
   */
  explain(err: unknown, what: string): unknown;
  /** Starts the budget again from now, unless it already ran out: for a stream that keeps delivering. */
  restart(): void;
  dispose(): void;
}

export function createDeadline(timeoutMs: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  // One listener per request made under this budget (redirect hops, sub-resources).
  setMaxListeners(100, controller.signal);
  let expired = false;
  const arm = () =>
    setTimeout(() => {
      expired = true;
      controller.abort(errors.timeout(`time budget of ${timeoutMs} ms exceeded`));
    }, timeoutMs);
  let timer = arm();
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    explain(err, what) {
      if (expired) return errors.timeout(`${what} within ${timeoutMs} ms`, err);
      if (parent?.aborted) return abortReasonToError(parent.reason);
      return err;
    },
    restart() {
      if (expired || controller.signal.aborted) return;
      clearTimeout(timer);
      timer = arm();
    },
    dispose() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/** A caller's abort reason as something to throw: `AbortSignal.timeout` reasons become a 504. */
export function abortReasonToError(reason: unknown): unknown {
  if (reason instanceof AppError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return errors.timeout('time budget exceeded', reason);
  return reason ?? new Error('aborted');
}
