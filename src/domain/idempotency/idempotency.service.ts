import { createHash } from 'node:crypto';
import type { Orm } from '../../db/orm.js';
import { AppError, errors } from '../../errors.js';
import { IdempotencyRecord } from './idempotency.entity.js';

export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

export type IdempotencyClaim = { kind: 'new' } | { kind: 'replay'; response: StoredResponse };

export interface IdempotencyServiceOptions {
  /** How long a key is remembered (decisions.md: 24 h). */
  ttlSeconds: number;
  /** How long an in-flight request holds its key before a retry may take it over (its process died). */
  lockSeconds?: number;
}

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on POST (decisions.md): the same key with the same request within the
 * TTL returns the stored response; while the first is in flight → 409
 * `idempotency_key_in_progress`; with a different request → 422 `idempotency_key_reuse`.
 * Responses with 429 or 5xx are not stored, so the key can be retried.
 */
export class IdempotencyService {
  private readonly lockSeconds: number;

  constructor(
    private readonly orm: Orm,
    private readonly options: IdempotencyServiceOptions,
  ) {
    this.lockSeconds = options.lockSeconds ?? 300;
  }

  static validateKey(key: string): void {
    if (!KEY_SHAPE.test(key)) {
      throw errors.validation('Idempotency-Key: must be 1 to 255 printable ASCII characters without spaces');
    }
  }

  static requestHash(method: string, path: string, body: string): string {
    return createHash('sha256').update(`${method}\n${path}\n`).update(body).digest('hex');
  }

  /** Claims the key for this request, or returns the response to replay. */
  async claim(teamId: string, key: string, requestHash: string): Promise<IdempotencyClaim> {
    const conn = this.orm.em.getConnection();
    // Take the key when it is new, expired, or abandoned in flight by a dead process with the same request.
    const taken = await conn.execute<{ team_id: string }[]>(
      `insert into idempotency_keys (team_id, key, request_hash, state, locked_until, created_at, expires_at)
       values (?, ?, ?, 'in_progress', now() + make_interval(secs => ?), now(), now() + make_interval(secs => ?))
       on conflict (team_id, key) do update
         set request_hash = excluded.request_hash, state = 'in_progress', locked_until = excluded.locked_until,
             created_at = excluded.created_at, expires_at = excluded.expires_at,
             status_code = null, response_body = null, response_headers = null
         where idempotency_keys.expires_at < now()
            or (idempotency_keys.state = 'in_progress' and idempotency_keys.locked_until < now()
                and idempotency_keys.request_hash = excluded.request_hash)
       returning team_id`,
      [teamId, key, requestHash, this.lockSeconds, this.options.ttlSeconds],
    );
    if (taken.length > 0) return { kind: 'new' };
    const existing = await this.orm.em.fork().findOne(IdempotencyRecord, { teamId, key });
    if (!existing) return this.claim(teamId, key, requestHash); // expired and removed in between
    if (existing.requestHash !== requestHash) {
      throw new AppError(
        'unprocessable',
        'idempotency_key_reuse',
        'Idempotency-Key was already used with a different request; use a new key for a new request',
      );
    }
    if (existing.state === 'in_progress') {
      throw new AppError(
        'conflict',
        'idempotency_key_in_progress',
        'a request with this Idempotency-Key is still being processed; retry later',
        { headers: { 'Retry-After': '1' } },
      );
    }
    return {
      kind: 'replay',
      response: {
        statusCode: existing.statusCode!,
        body: existing.responseBody ?? '',
        headers: existing.responseHeaders ?? {},
      },
    };
  }

  /** Stores the response of a claimed key, or releases the key when the response must not be kept. */
  async finish(teamId: string, key: string, response: StoredResponse): Promise<void> {
    const em = this.orm.em.fork();
    if (response.statusCode === 429 || response.statusCode >= 500) {
      await em.nativeDelete(IdempotencyRecord, { teamId, key, state: 'in_progress' });
      return;
    }
    await em.nativeUpdate(
      IdempotencyRecord,
      { teamId, key },
      {
        state: 'completed',
        statusCode: response.statusCode,
        responseBody: response.body,
        responseHeaders: response.headers,
        lockedUntil: null,
      },
    );
  }

  /** Deletes expired keys; returns how many. Run by the retention job. */
  async purgeExpired(): Promise<number> {
    return this.orm.em.fork().nativeDelete(IdempotencyRecord, { expiresAt: { $lt: new Date() } });
  }
}
