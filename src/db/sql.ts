import type { EntityManager } from '@mikro-orm/postgresql';

export type Row = Record<string, unknown>;

/**
 * Runs SQL in the transaction `em` belongs to, or on its own when `em` is in none. Raw SQL keeps
 * each step of the queues and counters a single statement.
 *
 * MikroORM writes the values into the SQL and sends one simple query. Keep it so: bound
 * parameters (the extended protocol) are not safe on the embedded database. pglite-socket runs
 * every connection on PGlite's one session and queues their messages one by one, so another
 * connection's Parse can land between this one's Parse and Execute, and named prepared
 * statements collide (a crawl hung on "already exists"). Measured too: bound, the scrape insert
 * cost more CPU there, its five messages being five calls into PGlite (docs/benchmarks.md,
 * "The request and write path").
 */
export function exec<T extends object = Row>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}
