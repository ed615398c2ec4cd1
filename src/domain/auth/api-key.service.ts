import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, errors } from '../../errors.js';
import { newId } from '../../ids.js';
import type { PubSub } from '../../pubsub/pubsub.js';
import { ApiKey } from './api-key.entity.js';
import { DISPLAY_PREFIX_LENGTH, generateApiKeySecret, hashApiKey } from './api-key-secret.js';
import type { AuthService } from './auth.service.js';
import { Team } from './team.entity.js';

export interface CreatedKey {
  /** The secret: shown once, never stored. */
  secret: string;
  key: ApiKey;
}

/** Teams and their API keys: create (secret shown once), list, revoke, first-start bootstrap. */
export class ApiKeyService {
  constructor(
    private readonly auth: AuthService,
    private readonly pubsub: PubSub,
  ) {}

  private get orm() {
    return this.auth.orm;
  }

  async createTeam(name: string, em: EntityManager = this.orm.em.fork()): Promise<Team> {
    const team = em.create(Team, { id: newId('team'), name, externalRef: null, settings: {}, createdAt: new Date() });
    await em.persistAndFlush(team);
    return team;
  }

  async listTeams(): Promise<Team[]> {
    return this.orm.em.fork().find(Team, {}, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  async createKey(teamId: string, name: string, em: EntityManager = this.orm.em.fork()): Promise<CreatedKey> {
    if (!(await em.findOne(Team, { id: teamId }))) throw errors.notFound('team', teamId);
    const created = this.buildKey(em, teamId, name);
    await em.flush();
    await this.publish('api_key.created', created.key);
    return created;
  }

  /** A new key entity (persisted on the next flush) and its secret. */
  private buildKey(em: EntityManager, teamId: string, name: string): CreatedKey {
    const secret = generateApiKeySecret();
    const key = em.create(ApiKey, {
      id: newId('key'),
      teamId,
      name,
      prefix: secret.slice(0, DISPLAY_PREFIX_LENGTH),
      hash: hashApiKey(secret),
      createdAt: new Date(),
      lastUsedAt: null,
      revokedAt: null,
    });
    em.persist(key);
    return { secret, key };
  }

  /** Keys of a team (of every team when teamId is null), newest first. */
  async listKeys(teamId: string | null): Promise<ApiKey[]> {
    return this.orm.em.fork().find(ApiKey, teamId ? { teamId } : {}, { orderBy: { createdAt: 'desc', id: 'asc' } });
  }

  /** Revokes a key of the team (of any team when teamId is null); 404 when it is not theirs. */
  async revokeKey(teamId: string | null, keyId: string): Promise<ApiKey> {
    const em = this.orm.em.fork();
    const key = await em.findOne(ApiKey, teamId ? { id: keyId, teamId } : { id: keyId });
    if (!key) throw new AppError('not_found', 'api_key_not_found', `API key ${JSON.stringify(keyId)} does not exist`);
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await em.flush();
      await this.publish('api_key.revoked', key);
    }
    this.auth.forgetKey(keyId);
    return key;
  }

  /**
   * On an empty database, creates the default team and its first key, exactly once even
   * when several processes start together. Returns the secret when it created one.
   */
  async bootstrap(): Promise<CreatedKey | null> {
    const created = await this.orm.em.fork().transactional(async (em) => {
      await em.getConnection().execute('select pg_advisory_xact_lock(727002)', [], 'all', em.getTransactionContext());
      if ((await em.count(Team, {})) > 0) return null;
      const team = await this.createTeam('default', em);
      return this.buildKey(em, team.id, 'default');
    });
    if (created) await this.publish('api_key.created', created.key);
    return created;
  }

  private async publish(type: 'api_key.created' | 'api_key.revoked', key: ApiKey): Promise<void> {
    await this.pubsub.publish({ type, teamId: key.teamId, keyId: key.id, name: key.name, at: Date.now() });
  }
}
