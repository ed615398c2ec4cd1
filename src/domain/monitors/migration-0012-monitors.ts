import { Migration } from '@mikro-orm/migrations';

/**
 * Monitors, their runs, their events and the state of each page they watch.
 * - `monitors`: what was asked (query, policy, frequency, channels) and what it became
 *   (tracked sources, cron, next run, the workflow diagram); soft-deleted (`status = deleted`).
 * - `monitor_pages`: per watched source (a URL, or `search:<query>`), the validators of the last
 *   fetch (ETag, Last-Modified) and the baseline snapshot's object key and fingerprint.
 * - `monitor_runs`: one row per run (scheduled, manual, the first one at provisioning).
 * - `monitor_events`: what runs found (`first_snapshot`, `changed`, `run_failed`), listed newest first.
 */
export class Migration0012Monitors extends Migration {
  override up(): void {
    this.addSql(`create table monitors (
      id text primary key,
      team_id text not null references teams (id) on update cascade on delete cascade,
      status text not null,
      query text not null,
      tracked jsonb not null,
      plan_explanation text not null default '',
      source_policy jsonb not null,
      frequency text not null,
      cron text not null,
      next_run_at timestamptz,
      notification jsonb not null,
      webhook jsonb,
      output_schema jsonb,
      detection jsonb,
      metadata jsonb not null default '{}',
      channel_state jsonb not null default '{}',
      error_message text,
      last_run jsonb,
      agent_id text not null,
      mermaid_diagram text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    )`);
    this.addSql('create index monitors_team_id_created_at_index on monitors (team_id, created_at)');
    this.addSql(`create table monitor_pages (
      monitor_id text not null references monitors (id) on delete cascade,
      source text not null,
      etag text,
      last_modified text,
      engine text,
      snapshot_key text,
      fingerprint text,
      data jsonb,
      fetched_at timestamptz,
      primary key (monitor_id, source)
    )`);
    this.addSql(`create table monitor_runs (
      id text primary key,
      monitor_id text not null references monitors (id) on delete cascade,
      team_id text not null,
      trigger text not null,
      status text not null,
      scheduled_for timestamptz,
      change_detected boolean not null default false,
      pages jsonb not null default '[]',
      summary text,
      error text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    )`);
    this.addSql('create index monitor_runs_monitor_id_created_at_index on monitor_runs (monitor_id, created_at)');
    this.addSql(`create table monitor_events (
      id text primary key,
      monitor_id text not null references monitors (id) on delete cascade,
      team_id text not null,
      run_id text not null,
      type text not null,
      changed boolean not null,
      summary text not null,
      snapshot_key text,
      diff_key text,
      data jsonb,
      data_changes jsonb,
      created_at timestamptz not null default now()
    )`);
    this.addSql(
      'create index monitor_events_monitor_id_created_at_index on monitor_events (monitor_id, created_at, id)',
    );
  }
}
