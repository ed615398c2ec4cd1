import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { teamChannel, type DomainEvent } from '../../src/pubsub/events.js';
import { createPostgresPubSub } from '../../src/pubsub/postgres-pubsub.js';
import type { PubSub } from '../../src/pubsub/pubsub.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

// The Postgres pubsub sends the events published while one NOTIFY statement runs together in
// the next: another process's subscriber still gets every event, once, in the order published.

let db: TestDatabase;
let publisher: PubSub;
let subscriber: PubSub;
const logger = createLogger({ logLevel: 'silent' });

beforeAll(async () => {
  db = await createTestDatabase();
  publisher = await createPostgresPubSub(db.url, logger);
  subscriber = await createPostgresPubSub(db.url, logger);
}, 60_000);

afterAll(async () => {
  await publisher?.close();
  await subscriber?.close();
  await db?.drop();
});

describe('Postgres pubsub', () => {
  it('delivers a burst of events once each, in order, identical ones included', async () => {
    const stop = new AbortController();
    const events = subscriber.subscribe(teamChannel('team_burst'), stop.signal);
    const event = (i: number): DomainEvent => ({ type: 'test.tick', teamId: 'team_burst', at: 0, i });
    const sent = Array.from({ length: 450 }, (_, i) => (i === 11 ? event(10) : event(i)));
    await Promise.all(sent.map((e) => publisher.publish(e)));
    const got: unknown[] = [];
    for await (const e of events) {
      got.push((e as unknown as { i: number }).i);
      if (got.length === sent.length) break;
    }
    stop.abort();
    expect(got).toEqual(sent.map((e) => (e as unknown as { i: number }).i));
  });
});
