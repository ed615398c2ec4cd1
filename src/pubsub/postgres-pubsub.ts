import pg from 'pg';
import { GroupCommit } from '../db/group-commit.js';
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
  /** This process's count of events sent: Postgres delivers identical payloads sent in one transaction once. */
  n: number;
}

/** Events sent per statement at most. */
const MAX_GROUP = 200;

/**
 * Pubsub over Postgres LISTEN/NOTIFY: every process sharing the database LISTENs on one
 * connection and fans events out to its local subscribers. Events are advisory progress
 * signals (durable state lives in tables), so a listener that reconnects after an outage
 * simply resumes; events published while it was away are not replayed.
 */
export interface PostgresPubSubOptions {
  /**
   * `now` (default): LISTEN from the start, so a subscriber gets every event published once it
   * has subscribed. `on-subscribe`: only once something here subscribes (events published
   * before the LISTEN is in place are not seen) — for processes and threads that publish and
   * serve no subscribers (worker processes, job threads, the CLI). Every LISTENing connection
   * receives and parses every event of every process: while two worker processes fired 10,000
   * schedules, three connections took 20,000 notifications each, two of them (the workers') for nobody.
   */
  listen?: 'now' | 'on-subscribe';
}

export async function createPostgresPubSub(
  connectionString: string,
  logger: Logger,
  options: PostgresPubSubOptions = {},
): Promise<PubSub> {
  const fanout = new LocalFanout();
  const publisher = new pg.Pool({ connectionString, max: 2, application_name: 'gleaner-pubsub' });
  publisher.on('error', (err) => logger.warn({ err }, 'pubsub publisher connection error'));
  // Events published while a NOTIFY statement runs go together in the next one (one statement,
  // one transaction for many events; one statement at a time, so they arrive in the order
  // published). A process firing 10,000 schedules sent 20,000 lone NOTIFYs before.
  const notifies = new GroupCommit<string, void>(
    async (payloads) => {
      // The payloads go as one JSON array: pg escapes a text[] parameter in JavaScript, element
      // by element (1.5 % of a worker's CPU while it fired 10,000 schedules); JSON.stringify is native.
      await publisher.query('select pg_notify($1, p) from json_array_elements_text($2::json) as p', [
        PG_CHANNEL,
        JSON.stringify(payloads),
      ]);
      return payloads.map(() => undefined);
    },
    { windowMs: 0, maxSize: MAX_GROUP, maxInFlight: 1 },
  );
  let sent = 0;
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
  let listening = options.listen !== 'on-subscribe';
  if (listening) {
    try {
      await connect();
    } catch (err) {
      closed = true; // no reconnect loop for a pubsub that never started
      await publisher.end();
      throw err;
    }
  }

  return {
    kind: 'postgres',
    async publish(event) {
      const payload = JSON.stringify({ c: channelsOf(event), e: event, n: ++sent } satisfies Envelope);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD) throw new Error(`event ${event.type} is too large for NOTIFY`);
      await notifies.submit(payload);
    },
    subscribe(channel, signal) {
      if (!listening && !closed) {
        listening = true;
        // connect() schedules its own reconnects when it fails.
        void connect().catch((err: unknown) => logger.warn({ err }, 'pubsub: could not start listening'));
      }
      return fanout.subscribe(channel, signal);
    },
    async close() {
      closed = true;
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
      await publisher.end();
    },
  };
}
