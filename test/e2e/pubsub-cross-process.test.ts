import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContainer, type Container } from '../../src/container.js';
import { testConfig, tempDir } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { collect, wsClient } from '../support/graphql-ws.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';

// Two processes on one Postgres server: a subscriber on one sees events published by the other.
describe('progress events across processes (LISTEN/NOTIFY)', () => {
  let db: TestDatabase;
  let service: SpawnedService;
  let other: Container;

  beforeAll(async () => {
    db = await createTestDatabase();
    const dataDir = tempDir('gleaner-pubsub-');
    service = await spawnService({ DATA_DIR: dataDir, DATABASE_URL: db.url });
    other = await createContainer(testConfig({ database: { url: db.url } }), { role: 'worker' });
    expect(other.pubsub.kind).toBe('postgres');
    (globalThis as { keyFile?: string }).keyFile = path.join(dataDir, 'api-key');
  }, 120_000);

  afterAll(async () => {
    await other?.close();
    await service?.stop();
    await db?.drop();
  });

  it('delivers an event published by another process to a GraphQL subscription', async () => {
    const key = readFileSync((globalThis as { keyFile?: string }).keyFile!, 'utf8').trim();
    const client = wsClient(service.url, key);
    const sub = collect<{ teamEvents: { type: string; name: string } }>(
      client,
      'subscription { teamEvents { ... on ApiKeyEvent { type name } } }',
      1,
    );
    await sub.ready;
    const [team] = await other.services.apiKeys.listTeams();
    await other.services.apiKeys.createKey(team!.id, 'made-elsewhere');
    expect((await sub.done)[0]!.teamEvents).toEqual({ type: 'api_key.created', name: 'made-elsewhere' });
    await client.dispose();
  });
});
