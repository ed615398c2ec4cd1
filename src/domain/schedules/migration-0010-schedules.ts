import { Migration } from '@mikro-orm/migrations';

/**
 * Schedules and their runs. A schedule's next due time is `next_run_at` (null once it has
 * ended); each due time is one `schedule.fire` job whose id is `<schedule>:<due time>`, and one
 * run row whose `(schedule_id, scheduled_for)` is unique, so a due time fires once whatever the
 * number of workers.
 */
export class Migration0010Schedules extends Migration {
  override up(): void {
    this.addSql(`create table schedules (
      id text primary key,
      team_id text not null,
      type text not null,
      method text not null,
      endpoint text not null,
      payload jsonb not null,
      cron_expression text,
      execute_at timestamptz,
      expression_timezone text not null,
      text text,
      description text,
      state text not null default 'ENABLED',
      next_run_at timestamptz,
      last_run_id text,
      runs_count int not null default 0,
      created_at timestamptz not null default now(),
      deleted_at timestamptz,
      constraint schedules_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index schedules_team_id_created_at_index on schedules (team_id, created_at)');
    this.addSql(`create table schedule_runs (
      id text primary key,
      schedule_id text not null,
      team_id text not null,
      scheduled_for timestamptz not null,
      started_at timestamptz not null,
      finished_at timestamptz,
      status text not null,
      attempts int not null default 1,
      missed_runs int not null default 0,
      http_status int,
      error text,
      resource_id text,
      response_excerpt text,
      constraint schedule_runs_schedule_id_foreign foreign key (schedule_id) references schedules (id) on update cascade on delete cascade,
      constraint schedule_runs_schedule_id_scheduled_for_unique unique (schedule_id, scheduled_for)
    )`);
  }
}
