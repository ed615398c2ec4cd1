import type { EntityManager } from '@mikro-orm/postgresql';

export type Row = Record<string, unknown>;

/**
 * Runs SQL in the transaction `em` belongs to, or on its own when `em` is in none. Raw SQL keeps
 * each step of the queues and counters a single statement.
 */
export function exec<T extends object = Row>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

/** Whether `err` is Postgres choosing this transaction as a deadlock's victim (SQLSTATE 40P01). */
export function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '40P01';
}

/**
 * Runs `transaction` again when Postgres broke a deadlock by rolling it back (nothing of it was
 * kept, so running it again is safe); other errors, and a third deadlock, are thrown.
 */
export async function retryDeadlocks<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (err) {
      if (!isDeadlock(err) || attempt >= attempts) throw err;
    }
  }
}
