import type { Orm } from '../../db/orm.js';
import type { Logger } from '../../logger.js';
import type { PageContentStore } from '../pages/page-content.js';

export interface RetentionDeps {
  orm: Orm;
  content: PageContentStore;
  /** RETENTION_DAYS: what is older goes. */
  retentionDays: number;
  logger: Logger;
}

export interface PurgeReport {
  pages: number;
  batches: number;
  webhookEvents: number;
  idempotencyKeys: number;
}

const CHUNK = 500;

/**
 * Deletes what outlived RETENTION_DAYS: stored pages with their objects (scrapes go with their
 * page), finished batches with their items, settled webhook events with their attempts, and
 * expired idempotency keys. Safe to run from several workers at once (each row once).
 */
export class RetentionService {
  constructor(private readonly deps: RetentionDeps) {}

  async purge(now = new Date()): Promise<PurgeReport> {
    const cutoff = new Date(now.getTime() - this.deps.retentionDays * 86_400_000);
    const conn = this.deps.orm.em.getConnection();
    const report: PurgeReport = { pages: 0, batches: 0, webhookEvents: 0, idempotencyKeys: 0 };
    for (;;) {
      const rows = await conn.execute<{ id: string; team_id: string }[]>(
        'delete from pages where id in (select id from pages where created_at < ? limit ? for update skip locked) returning id, team_id',
        [cutoff, CHUNK],
      );
      await Promise.all(rows.map((r) => this.deps.content.remove(r.team_id, r.id)));
      report.pages += rows.length;
      if (rows.length < CHUNK) break;
    }
    const batches = await conn.execute<{ id: string }[]>(
      `delete from batches where created_at < ? and status <> 'in_progress' returning id`,
      [cutoff],
    );
    report.batches = batches.length;
    const events = await conn.execute<{ id: string }[]>(
      `delete from webhook_events where created_at < ? and status in ('delivered', 'failed') returning id`,
      [cutoff],
    );
    report.webhookEvents = events.length;
    const keys = await conn.execute<{ n: number }[]>(
      'with gone as (delete from idempotency_keys where expires_at < now() returning 1) select count(*)::int as n from gone',
    );
    report.idempotencyKeys = keys[0]?.n ?? 0;
    if (report.pages + report.batches + report.webhookEvents + report.idempotencyKeys > 0) {
      this.deps.logger.info({ ...report, cutoff: cutoff.toISOString() }, 'retention purge');
    }
    return report;
  }
}
