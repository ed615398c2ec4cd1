import type { EntityManager } from '@mikro-orm/postgresql';

export type Row = Record<string, unknown>;

/**
 * Runs SQL in the transaction `em` belongs to, or on its own when `em` is in none. Raw SQL keeps
 * each step of the queues and counters a single statement.
 */
export function exec<T extends object = Row>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

/**
 * `exec` for statements with large values (a page's text, its JSON): the values travel as bound
 * parameters of the extended protocol, beside the SQL, where `exec` (MikroORM's `execute`) writes
 * them into the SQL text. Written in, a 20,000-character text is escaped character by character
 * here, sent as a statement of that size, and lexed by the database before it is planned; bound,
 * it is copied once. Placeholders are `?` (outside string literals: every `?` is a parameter).
 * Errors are MikroORM's (`UniqueConstraintViolationException`, ...), as from `exec`.
 */
export async function execBound<T extends object = Row>(
  em: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const query = em
    .getConnection()
    .getKnex()
    .raw(sql, params as never[]);
  const ctx = em.getTransactionContext();
  if (ctx) void query.transacting(ctx);
  try {
    const result = (await query) as { rows: T[] };
    return result.rows;
  } catch (err) {
    throw em.getDriver().convertException(err as Error);
  }
}
