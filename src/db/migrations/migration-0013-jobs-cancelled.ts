import { Migration } from '@mikro-orm/migrations';

/**
 * Jobs can end `cancelled` (a batch, crawl or answer cancelled by its client): the index the
 * purge of finished jobs reads covers them too, so that purge stays a range scan.
 */
export class Migration0013JobsCancelled extends Migration {
  override up(): void {
    this.addSql('drop index if exists jobs_finished_index');
    this.addSql(
      `create index jobs_finished_index on jobs (finished_at) where status in ('completed', 'failed', 'cancelled')`,
    );
  }

  override down(): void {
    this.addSql('drop index if exists jobs_finished_index');
    this.addSql(`create index jobs_finished_index on jobs (finished_at) where status in ('completed', 'failed')`);
  }
}
