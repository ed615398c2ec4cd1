import { Migration } from '@mikro-orm/migrations';

/** Uploaded files: one row each; the bytes live in the blob store under the file's prefix. */
export class Migration0011Files extends Migration {
  override up(): void {
    this.addSql(`create table files (
      id text primary key,
      team_id text not null,
      filename text not null,
      purpose text not null,
      status text not null,
      bytes bigint not null default 0,
      upload_expires_at timestamptz not null,
      items int,
      error text,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      upload_swept boolean not null default false,
      constraint files_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index files_team_id_created_at_index on files (team_id, created_at)');
    // Maintenance finds expired pending files and old completed ones without scanning every team.
    this.addSql('create index files_status_upload_expires_at_index on files (status, upload_expires_at)');
    this.addSql('create index files_status_completed_at_index on files (status, completed_at)');
    this.addSql('create index files_upload_unswept_index on files (upload_expires_at) where not upload_swept');
  }
}
