import { Migration } from '@mikro-orm/migrations';

/**
 * Answers (POST /v1/answers): the task and what it asked for, its state while it runs on the
 * job queue (`answer.run`, the job id is the answer's), and its result. The JSON itself is also
 * an object in the blob store (`json_key`), served as `json_hosted_url`.
 */
export class Migration0009Answers extends Migration {
  override up(): void {
    this.addSql(`create table answers (
      id text primary key,
      team_id text not null,
      status text not null default 'in_progress',
      phase text not null default 'queued',
      task text not null,
      request jsonb not null default '{}',
      metadata jsonb not null default '{}',
      json_content text,
      json_key text,
      sources jsonb not null default '[]',
      warning text,
      error_code text,
      error_message text,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      constraint answers_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index answers_team_id_created_at_index on answers (team_id, created_at desc, id desc)');
  }

  override down(): void {
    this.addSql('drop table if exists answers');
  }
}
