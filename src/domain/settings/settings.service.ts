import { randomBytes } from 'node:crypto';
import type { Orm } from '../../db/orm.js';

/**
 * Returns the deployment-wide value of `key`, creating it with `create()` on first use.
 * Concurrent first uses from several processes agree on one value (insert-or-keep).
 */
export async function getOrCreateSetting(orm: Orm, key: string, create: () => string): Promise<string> {
  const conn = orm.em.getConnection();
  await conn.execute('insert into service_settings (key, value) values (?, ?) on conflict (key) do nothing', [
    key,
    create(),
  ]);
  const rows = await conn.execute<{ value: string }[]>('select value from service_settings where key = ?', [key]);
  return rows[0]!.value;
}

/** The HMAC secret for signed URLs and cursors: SIGNING_SECRET, else one generated for the deployment. */
export async function signingSecret(orm: Orm, configured: string | null): Promise<string> {
  return configured ?? getOrCreateSetting(orm, 'signing_secret', () => randomBytes(32).toString('base64url'));
}
