import { Migration } from '@mikro-orm/migrations';

/**
 * Batches and their items (the items table is the work queue: status, attempts, lease), and
 * the webhook outbox with every delivery attempt.
 */
export class Migration0004BatchesAndWebhooks extends Migration {
  override up(): void {
    this.addSql(`create table batches (
      id text primary key,
      team_id text not null,
      status text not null default 'in_progress',
      total_urls int not null,
      items_completed int not null default 0,
      items_failed int not null default 0,
      number_retried int not null default 0,
      options jsonb not null,
      parser text,
      country text,
      metadata jsonb not null,
      webhook text,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      constraint batches_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index batches_team_id_created_at_index on batches (team_id, created_at)');
    this.addSql(`create table batch_items (
      id text primary key,
      batch_id text not null,
      team_id text not null,
      seq int not null,
      custom_id text not null,
      url text not null,
      host text not null,
      metadata jsonb,
      retrieve_id text not null,
      status text not null default 'queued',
      attempts int not null default 0,
      run_at timestamptz not null default now(),
      lease_owner text,
      lease_expires_at timestamptz,
      error_code text,
      error_message text,
      finished_at timestamptz,
      constraint batch_items_batch_id_foreign foreign key (batch_id) references batches (id) on update cascade on delete cascade,
      constraint batch_items_batch_id_custom_id_unique unique (batch_id, custom_id)
    )`);
    this.addSql('create index batch_items_batch_id_seq_index on batch_items (batch_id, seq)');
    this.addSql('create index batch_items_status_run_at_index on batch_items (status, run_at)');
    this.addSql('create index batch_items_status_lease_expires_at_index on batch_items (status, lease_expires_at)');
    this.addSql(`create table webhook_events (
      id text primary key,
      team_id text not null,
      type text not null,
      resource_id text not null,
      url text not null,
      data jsonb not null,
      status text not null default 'pending',
      attempts int not null default 0,
      next_attempt_at timestamptz not null default now(),
      lease_owner text,
      lease_expires_at timestamptz,
      created_at timestamptz not null default now(),
      delivered_at timestamptz,
      constraint webhook_events_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade,
      constraint webhook_events_type_resource_id_unique unique (type, resource_id)
    )`);
    this.addSql('create index webhook_events_status_next_attempt_at_index on webhook_events (status, next_attempt_at)');
    this.addSql(`create table webhook_attempts (
      id text primary key,
      event_id text not null,
      team_id text not null,
      attempt int not null,
      url text not null,
      status_code int,
      duration_ms int not null,
      error text,
      created_at timestamptz not null default now(),
      constraint webhook_attempts_event_id_foreign foreign key (event_id) references webhook_events (id) on update cascade on delete cascade
    )`);
    this.addSql('create index webhook_attempts_team_id_created_at_index on webhook_attempts (team_id, created_at)');
  }
}
