import { Migration } from '@mikro-orm/migrations';

/** Teams, API keys and idempotency records. */
export class Migration0001Foundation extends Migration {
  override up(): void {
    this.addSql(`create table teams (
      id text primary key,
      name text not null,
      external_ref text,
      settings jsonb not null default '{}',
      created_at timestamptz not null default now(),
      constraint teams_external_ref_unique unique (external_ref)
    )`);
    this.addSql(`create table api_keys (
      id text primary key,
      team_id text not null,
      name text not null,
      prefix text not null,
      hash text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      constraint api_keys_hash_unique unique (hash),
      constraint api_keys_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index api_keys_team_id_index on api_keys (team_id)');
    this.addSql(`create table idempotency_keys (
      team_id text not null,
      key text not null,
      request_hash text not null,
      state text not null,
      status_code int,
      response_body text,
      response_headers jsonb,
      locked_until timestamptz,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (team_id, key),
      constraint idempotency_keys_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index idempotency_keys_expires_at_index on idempotency_keys (expires_at)');
  }
}
