import type { EntityManager } from '@mikro-orm/postgresql';

export type Row = Record<string, unknown>;

/**
 * Runs SQL in the transaction `em` belongs to, or on its own when `em` is in none. Raw SQL keeps
 * each step of the queues and counters a single statement.
 */
export function exec<T extends object = Row>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}
