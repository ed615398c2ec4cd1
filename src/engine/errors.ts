/**
 * Thrown by an engine when it cannot do this page but another capable engine might
 * (a page that needs scripts, a browser that crashed, a proxy that refused). The registry
 * then tries the next engine. Anything else an engine throws stops the fetch: an `AppError`
 * is the client's answer (403 blocked, 502 unreachable, 504 timeout).
 *
 * @example
 * if (looksLikeScriptOnlyShell(html)) throw new EngineFallbackError('page renders with JavaScript');
 */
export class EngineFallbackError extends Error {
  /** Why this engine gave up, shown in the 502 detail when every engine gave up. */
  readonly reason: string;

  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EngineFallbackError';
    this.reason = reason;
  }
}

/** One engine's failed try, kept for the final error and for warnings. */
export interface EngineAttempt {
  engine: string;
  reason: string;
}
