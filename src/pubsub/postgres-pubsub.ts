import pg from 'pg';
import type { Logger } from '../logger.js';
import { channelsOf, type DomainEvent } from './events.js';
import { LocalFanout, type PubSub } from './pubsub.js';

/** The one NOTIFY channel; messages carry their logical channels inside. */
const PG_CHANNEL = 'gleaner_events';
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7900;

interface Envelope {
  c: string[];
  e: DomainEvent;
}

/**
 * Pubsub over Postgres LISTEN/NOTIFY: every process sharing the database LISTENs on one
 * connection and fans events out to its local subscribers. Events are advisory progress
 * signals (durable state lives in tables), so a listener that reconnects after an outage
 * simply resumes; events published while it was away are not replayed.
 */
export async function createPostgresPubSub(connectionString: string, logger: Logger): Promise<PubSub> {
  const fanout = new LocalFanout();
  const publisher = new pg.Pool({ connectionString, max: 2, application_name: 'gleaner-pubsub' });
  publisher.on('error', (err) => logger.warn({ err }, 'pubsub publisher connection error'));
  let listener: pg.Client | null = null;
  let closed = false;
  let retryMs = 100;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString, application_name: 'gleaner-pubsub-listen' });
    client.on('notification', (msg) => {
      if (msg.channel !== PG_CHANNEL || !msg.payload) return;
      try {
        const { c, e } = JSON.parse(msg.payload) as Envelope;
        fanout.deliver(c, e);
      } catch (err) {
        logger.warn({ err }, 'pubsub: unreadable notification');
      }
    });
    const reconnect = (err?: Error) => {
      if (closed || listener !== client) return;
      listener = null;
      logger.warn({ err }, `pubsub listener lost; reconnecting in ${retryMs} ms`);
      const delay = retryMs;
      retryMs = Math.min(retryMs * 2, 5000);
      setTimeout(() => void connect().catch((e: Error) => logger.warn({ err: e }, 'pubsub reconnect failed')), delay);
    };
    client.on('error', reconnect);
    client.on('end', () => reconnect());
    listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
      retryMs = 100;
    } catch (err) {
      reconnect(err as Error);
      throw err;
    }
  };
  try {
    await connect();
  } catch (err) {
    closed = true; // no reconnect loop for a pubsub that never started
    await publisher.end();
    throw err;
  }

  return {
    kind: 'postgres',
    async publish(event) {
      const payload = JSON.stringify({ c: channelsOf(event), e: event } satisfies Envelope);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error(`event ${event.type} is too large for NOTIFY`);
      await publisher.query('select pg_notify($1, $2)', [PG_CHANNEL, payload]);
    },
    subscribe: (channel, signal) => fanout.subscribe(channel, signal),
    async close() {
      closed = true;
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
      await publisher.end();
    },
  };
}
