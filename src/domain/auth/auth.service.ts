import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Orm } from '../../db/orm.js';
import { errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Actor } from './actor.js';
import { ApiKey } from './api-key.entity.js';
import { hashApiKey, looksLikeApiKey } from './api-key-secret.js';
import type { VerifiedToken } from './jwt-verifier.js';
import { Team } from './team.entity.js';

export interface AuthServiceDeps {
  orm: Orm;
  /** Verifies identity-provider tokens; null when no provider is configured. */
  verifyJwt: ((token: string) => Promise<VerifiedToken>) | null;
  /** How long a verified key stays cached in this process (revocations elsewhere apply after it). */
  keyCacheMs?: number;
}

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const LAST_USED_RESOLUTION_MS = 60_000;

/** Bearer authentication: API keys and identity-provider tokens. */
export class AuthService {
  private readonly cache = new Map<string, { actor: Actor; expires: number }>();
  private readonly lastUsedWritten = new Map<string, number>();
  /** How long a verified key stays cached: a revocation made elsewhere applies within it. */
  readonly keyCacheMs: number;

  constructor(private readonly deps: AuthServiceDeps) {
    this.keyCacheMs = deps.keyCacheMs ?? 2000;
  }

  get orm(): Orm {
    return this.deps.orm;
  }

  /** Resolves an `Authorization` header value to an actor, or throws 401 `invalid_api_key`. */
  async authenticate(authorization: string | undefined | null): Promise<Actor> {
    if (!authorization)
      throw errors.unauthorized('missing Authorization header; send "Authorization: Bearer <API key>"');
    const match = /^(\S+)\s+(\S+)\s*$/.exec(authorization);
    if (!match) throw errors.unauthorized('malformed Authorization header; expected "Bearer <API key>"');
    if (match[1]!.toLowerCase() !== 'bearer') {
      throw errors.unauthorized(`unsupported authorization scheme "${match[1]}"; use Bearer`);
    }
    const token = match[2]!;
    if (looksLikeApiKey(token)) return this.authenticateKey(token);
    if (JWT_SHAPE.test(token)) {
      if (!this.deps.verifyJwt)
        throw errors.unauthorized('access tokens are not accepted: no identity provider is configured');
      return this.authenticateToken(token);
    }
    throw errors.unauthorized('invalid API key');
  }

  private async authenticateKey(secret: string): Promise<Actor> {
    const hash = hashApiKey(secret);
    const cached = this.cache.get(hash);
    if (cached && cached.expires > Date.now()) return cached.actor;
    const em = this.deps.orm.em.fork();
    const key = await em.findOne(ApiKey, { hash });
    if (!key) throw errors.unauthorized('invalid API key');
    if (key.revokedAt) throw errors.unauthorized('this API key has been revoked');
    const actor: Actor = { teamId: key.teamId, via: 'api_key', keyId: key.id };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { actor, expires: Date.now() + this.keyCacheMs });
    this.touch(key.id);
    return actor;
  }

  private async authenticateToken(token: string): Promise<Actor> {
    const verified = await this.deps.verifyJwt!(token);
    const team = await this.teamForExternalRef(verified.teamRef);
    return { teamId: team.id, via: 'jwt', subject: verified.subject, expiresAt: verified.expiresAt };
  }

  /** The team an identity provider names; created on first sight (just-in-time provisioning). */
  private async teamForExternalRef(ref: string): Promise<Team> {
    const em = this.deps.orm.em.fork();
    const existing = await em.findOne(Team, { externalRef: ref });
    if (existing) return existing;
    const team = em.create(Team, {
      id: newId('team'),
      name: ref,
      externalRef: ref,
      settings: {},
      createdAt: new Date(),
    });
    try {
      await em.persistAndFlush(team);
      return team;
    } catch (err) {
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      return this.deps.orm.em.fork().findOneOrFail(Team, { externalRef: ref }); // another request created it
    }
  }

  /** Records use at most once a minute per key, off the request path. */
  private touch(keyId: string): void {
    const last = this.lastUsedWritten.get(keyId) ?? 0;
    if (Date.now() - last < LAST_USED_RESOLUTION_MS) return;
    this.lastUsedWritten.set(keyId, Date.now());
    void this.deps.orm.em
      .fork()
      .nativeUpdate(ApiKey, { id: keyId }, { lastUsedAt: new Date() })
      .catch(() => undefined);
  }

  /** Which of `keyIds` are revoked or no longer exist (for connections that outlive one request). */
  async revokedAmong(keyIds: string[]): Promise<Set<string>> {
    if (keyIds.length === 0) return new Set();
    const found = await this.deps.orm.em.fork().find(ApiKey, { id: { $in: keyIds } }, { fields: ['id', 'revokedAt'] });
    const active = new Set(found.filter((k) => !k.revokedAt).map((k) => k.id));
    return new Set(keyIds.filter((id) => !active.has(id)));
  }

  /** Drops a key from this process's cache (after revocation). */
  forgetKey(keyId: string): void {
    for (const [hash, entry] of this.cache) if (entry.actor.keyId === keyId) this.cache.delete(hash);
  }
}
