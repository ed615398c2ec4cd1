import { Migration } from '@mikro-orm/migrations';

/**
 * Crawls and their frontier. The frontier is the crawl's state: every URL the crawl has seen
 * (its dedupe key is unique per crawl, so it doubles as the visited set), with its depth and
 * where it stands (queued → running → done | failed | blocked; external and alias rows are
 * never fetched). A crawl is leased to one runner at a time (lease_owner, lease_expires_at).
 */
export class Migration0006Crawls extends Migration {
  override up(): void {
    this.addSql(`create table crawls (
      id text primary key,
      team_id text not null,
      status text not null default 'in_progress',
      start_url text not null,
      scope_url text not null,
      max_pages int not null,
      max_depth int,
      include_urls jsonb not null,
      exclude_urls jsonb not null,
      include_external boolean not null default false,
      include_subdomain boolean not null default false,
      search_query text,
      top_n int,
      follow_robots_txt boolean not null default true,
      timeout_seconds int not null,
      options jsonb not null,
      webhook text,
      pages_count int not null default 0,
      failed_count int not null default 0,
      external_count int not null default 0,
      blocked_count int not null default 0,
      frontier_count int not null default 0,
      current_depth int not null default 0,
      stop_reason text,
      warning text,
      lease_owner text,
      lease_expires_at timestamptz,
      runs int not null default 0,
      deadline_at timestamptz not null,
      created_at timestamptz not null default now(),
      completed_at timestamptz,
      constraint crawls_team_id_foreign foreign key (team_id) references teams (id) on update cascade on delete cascade
    )`);
    this.addSql('create index crawls_team_id_created_at_index on crawls (team_id, created_at)');
    this.addSql('create index crawls_status_lease_expires_at_index on crawls (status, lease_expires_at)');
    this.addSql(`create table crawl_frontier (
      id text primary key,
      crawl_id text not null,
      url_key text not null,
      url text not null,
      depth int not null,
      seq int not null,
      is_external boolean not null default false,
      status text not null default 'queued',
      attempts int not null default 0,
      page_seq int,
      final_url text,
      error_code text,
      error_message text,
      constraint crawl_frontier_crawl_id_foreign foreign key (crawl_id) references crawls (id) on update cascade on delete cascade,
      constraint crawl_frontier_crawl_id_url_key_unique unique (crawl_id, url_key)
    )`);
    this.addSql(
      'create index crawl_frontier_crawl_id_status_depth_seq_index on crawl_frontier (crawl_id, status, depth, seq)',
    );
    this.addSql('create index crawl_frontier_crawl_id_page_seq_index on crawl_frontier (crawl_id, page_seq)');
  }
}
