import { exec } from '../../db/sql.js';
import { defineModule } from '../../module/app-module.js';
import { IdempotencyRecordSchema } from './idempotency.entity.js';
import { IdempotencyService } from './idempotency.service.js';

/** `Idempotency-Key` on every POST (the HTTP middleware uses it). */
export const idempotencyModule = defineModule({
  name: 'idempotency',
  entities: [IdempotencyRecordSchema],
  services: (ctx) => ({
    idempotency: new IdempotencyService(ctx.orm, { ttlSeconds: ctx.config.idempotencyTtlSeconds }),
  }),
  maintenance: (_, { orm }) => [
    async () => {
      const [row] = await exec<{ n: number }>(
        orm.em.fork(),
        'with gone as (delete from idempotency_keys where expires_at < now() returning 1) select count(*)::int as n from gone',
      );
      return { idempotencyKeys: row?.n ?? 0 };
    },
  ],
});
