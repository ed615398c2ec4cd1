import { Migration } from '@mikro-orm/migrations';

/**
 * Full-text search over stored pages (the built-in search provider): each page's title,
 * description and text as a weighted `tsvector`, written by the insert that stores the page
 * (src/domain/pages/page-row.ts), so nothing is read back from the blob store to index it.
 * Pages stored before this migration have no vector and are not found until fetched again.
 */
export class Migration0008PageSearch extends Migration {
  override up(): void {
    this.addSql('alter table pages add column if not exists search_vector tsvector');
    this.addSql('create index if not exists pages_search_vector_index on pages using gin (search_vector)');
  }

  override down(): void {
    this.addSql('drop index if exists pages_search_vector_index');
    this.addSql('alter table pages drop column if exists search_vector');
  }
}
