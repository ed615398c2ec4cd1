import { Migration } from '@mikro-orm/migrations';

/**
 * One job queue for all background work (src/workers/queue): batch items, crawls and webhook
 * deliveries become jobs, with the lease, attempts and due time their own tables carried until
 * now. Work in flight moves over: what was running comes back queued (its old worker is gone
 * with the old version), with the attempts it had used.
 */
export class Migration0007JobQueue extends Migration {
  override up(): void {
    this.addSql(`create table jobs (
      id text primary key,
      kind text not null,
      team_id text,
      status text not null default 'queued',
      priority int not null default 0,
      concurrency_key text,
      payload jsonb not null default '{}',
      run_at timestamptz not null default now(),
      seq bigserial,
      attempts int not null default 0,
      max_attempts int not null,
      lease_owner text,
      lease_expires_at timestamptz,
      error_code text,
      error_message text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      constraint jobs_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql(`create index jobs_claim_index on jobs (kind, priority desc, run_at, seq) where status = 'queued'`);
    this.addSql(`create index jobs_running_index on jobs (kind, lease_expires_at) where status = 'running'`);
    this.addSql(`create index jobs_finished_index on jobs (finished_at) where status in ('completed', 'failed')`);

    this.addSql(`insert into jobs (id, kind, team_id, payload, run_at, concurrency_key, attempts, max_attempts,
                                   error_code, error_message)
      select i.id, 'batch.item', i.team_id,
             jsonb_build_object('batchId', i.batch_id, 'url', i.url, 'retrieveId', i.retrieve_id),
             case when i.status = 'running' then now() else i.run_at end, i.host,
             case when i.status = 'running' then greatest(i.attempts - 1, 0) else i.attempts end,
             greatest(i.attempts + 1, 3), i.error_code, i.error_message
      from batch_items i where i.status in ('queued', 'running') order by i.run_at, i.batch_id, i.seq`);
    this.addSql(`update batch_items set status = 'queued' where status = 'running'`);
    this.addSql(`alter table batch_items drop column attempts, drop column run_at, drop column lease_owner,
                   drop column lease_expires_at`);

    this.addSql(`insert into jobs (id, kind, team_id, attempts, max_attempts)
      select id, 'crawl.run', team_id, 0, 20 from crawls where status = 'in_progress' order by created_at, id`);
    this.addSql(`update crawl_frontier f set status = 'queued' from crawls c
      where f.crawl_id = c.id and c.status = 'in_progress' and f.status = 'running'`);
    this.addSql(`drop index if exists crawls_status_lease_expires_at_index`);
    this.addSql(`alter table crawls drop column lease_owner, drop column lease_expires_at`);

    this.addSql(`insert into jobs (id, kind, team_id, run_at, attempts, max_attempts)
      select id, 'webhook.delivery', team_id,
             case when status = 'delivering' then now() else next_attempt_at end, attempts, 5
      from webhook_events where status in ('pending', 'delivering') order by next_attempt_at, id`);
    this.addSql(`update webhook_events set status = 'pending' where status = 'delivering'`);
    this.addSql(`alter table webhook_events drop column next_attempt_at, drop column lease_owner,
                   drop column lease_expires_at`);
  }
}
