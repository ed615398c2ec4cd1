import { Migration } from '@mikro-orm/migrations';

/** Finished maps: one row each; the URL list lives in the blob store. */
export class Migration0005Maps extends Migration {
  override up(): void {
    this.addSql(`create table maps (
      id text primary key,
      team_id text not null,
      url text not null,
      options jsonb not null,
      urls_count int not null,
      urls_bytes bigint not null,
      stats jsonb not null,
      warning text,
      created_at timestamptz not null default now(),
      constraint maps_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index maps_team_id_created_at_index on maps (team_id, created_at)');
  }
}
