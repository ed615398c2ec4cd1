import { Migration } from '@mikro-orm/migrations';

/** Retrievable page content (formats in the blob store) and synchronous scrapes. */
export class Migration0003PagesAndScrapes extends Migration {
  override up(): void {
    this.addSql(`create table pages (
      id text primary key,
      team_id text not null,
      source text not null,
      url text not null,
      final_url text,
      status_code int,
      formats jsonb not null,
      page_metadata jsonb not null,
      links jsonb,
      actions_output jsonb,
      created_at timestamptz not null default now(),
      constraint pages_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index pages_team_id_created_at_index on pages (team_id, created_at)');
    this.addSql(`create table scrapes (
      id text primary key,
      team_id text not null,
      url text not null,
      page_id text not null,
      request jsonb not null,
      metadata jsonb not null,
      warning text,
      created_at timestamptz not null default now(),
      constraint scrapes_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade,
      constraint scrapes_page_id_foreign foreign key (page_id) references pages (id) on update cascade on delete cascade
    )`);
    this.addSql('create index scrapes_team_id_created_at_index on scrapes (team_id, created_at)');
  }
}
