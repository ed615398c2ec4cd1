import { createContainer, type Container } from '../../src/container.js';
import { exec } from '../../src/db/sql.js';
import type { Actor } from '../../src/domain/auth/actor.js';
import { allowLocalPorts, testConfig } from './config.js';
import { createTestDatabase } from './database.js';

/** The API's container on a fresh database of the test server, no server or workers, and one team. */
export interface ApiContainer {
  api: Container;
  /** The team's actor (as a key of it would act). */
  actor: Actor;
  /** Raw SQL on its own connection (`?` placeholders). */
  sql<T extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/**
 * For tests that drive the domain's statements step by step, with nothing running jobs behind
 * them: the outbound policy lets 127.0.0.1:9 through (an address nothing answers on).
 *
 * @example
 * let h: ApiContainer;
 * beforeAll(async () => (h = await startApiContainer('crawl-records')), 120_000);
 * afterAll(() => h?.close());
 */
export async function startApiContainer(teamName: string): Promise<ApiContainer> {
  const db = await createTestDatabase();
  try {
    const api = await createContainer(testConfig({ database: { url: db.url }, outbound: allowLocalPorts(9) }), {
      role: 'api',
    });
    const team = await api.services.apiKeys.createTeam(teamName);
    return {
      api,
      actor: { teamId: team.id, via: 'api_key' },
      sql: (text, params = []) => exec(api.db.orm.em.fork(), text, params),
      async close() {
        await api.close();
        await db.drop();
      },
    };
  } catch (err) {
    await db.drop();
    throw err;
  }
}
