import pg from 'pg';
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

  it('a pubsub that listens on subscribe opens no LISTEN connection until something subscribes', async () => {
    const quiet = await createPostgresPubSub(db.url, logger, { listen: 'on-subscribe' });
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    const listeners = async () =>
      Number(
        (
          await admin.query(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and application_name = 'gleaner-pubsub-listen'`,
          )
        ).rows[0].n,
      );
    try {
      const before = await listeners(); // the publisher's and the subscriber's, from the start
      expect(before).toBe(2);
      await quiet.publish({ type: 'test.tick', teamId: 'team_quiet', at: 0 }); // publishing needs none
      const stop = new AbortController();
      const events = quiet.subscribe(teamChannel('team_quiet'), stop.signal);
      await expect.poll(listeners, { timeout: 10_000 }).toBe(before + 1);
      await publisher.publish({ type: 'test.tick', teamId: 'team_quiet', at: 1 });
      const first = await events.next();
      stop.abort();
      expect(first.value).toMatchObject({ type: 'test.tick', at: 1 });
    } finally {
      await admin.end();
      await quiet.close();
    }
  });
});
