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

/** A value `execLarge` writes into its SQL. */
export type SqlValue = string | number | boolean | null;

/**
 * `exec` for statements carrying large texts (a page's search text, up to 20,000 characters):
 * the values are written into the SQL as `exec` writes them (MikroORM's format, byte for byte),
 * but strings are escaped with two native `replaceAll`s where MikroORM (through pg's
 * `escapeLiteral`) appends them character by character: 0.46 against 0.007 ms for a page's
 * search text, and one string of garbage instead of thousands. Placeholders are `?`.
 */
export function execLarge<T extends object = Row>(em: EntityManager, sql: string, params: SqlValue[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(formatSql(sql, params), [], 'all', em.getTransactionContext());
}

/** `sql` with each `?` replaced by its value as an SQL literal (the statement's placeholders only). */
export function formatSql(sql: string, params: readonly SqlValue[]): string {
  const parts = sql.split('?');
  if (parts.length !== params.length + 1) {
    throw new Error(`formatSql: ${parts.length - 1} placeholders for ${params.length} values`);
  }
  let out = parts[0]!;
  for (let i = 0; i < params.length; i++) out += sqlLiteral(params[i]!) + parts[i + 1]!;
  return out;
}

/** pg's `escapeLiteral` (what MikroORM uses), same output: a backslash makes it an E'' string. */
export function sqlLiteral(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`formatSql: ${value} is not a number SQL can hold`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const quoted = value.replaceAll("'", "''");
  return value.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}
