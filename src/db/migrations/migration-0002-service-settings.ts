import { Migration } from '@mikro-orm/migrations';

/** Deployment-wide settings shared by every process (signing secret). */
export class Migration0002ServiceSettings extends Migration {
  override up(): void {
    this.addSql(`create table service_settings (
      key text primary key,
      value text not null,
      created_at timestamptz not null default now()
    )`);
  }
}
