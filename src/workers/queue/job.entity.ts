import { EntitySchema } from '@mikro-orm/core';
import { Team } from '../../domain/auth/team.entity.js';

/**
 * A row of the job queue. The queue reads and writes it with SQL of its own (job-queue.ts);
 * the entity declares the table so the ORM's view of the schema matches the migrations.
 */
export class Job {
  id!: string;
  kind!: string;
  teamId: string | null = null;
  /** `queued` → `running` → `completed` | `failed` (or back to `queued` for a retry); `cancelled` from queued or running. */
  status!: string;
  priority = 0;
  concurrencyKey: string | null = null;
  payload: Record<string, unknown> = {};
  runAt!: Date;
  seq!: string;
  attempts = 0;
  maxAttempts!: number;
  leaseOwner: string | null = null;
  leaseExpiresAt: Date | null = null;
  errorCode: string | null = null;
  errorMessage: string | null = null;
  createdAt!: Date;
  startedAt: Date | null = null;
  finishedAt: Date | null = null;
}

export const JobSchema = new EntitySchema<Job>({
  class: Job,
  tableName: 'jobs',
  indexes: [
    {
      name: 'jobs_claim_index',
      expression: `create index jobs_claim_index on jobs (kind, priority desc, run_at, seq) where status = 'queued'`,
    },
    {
      name: 'jobs_running_index',
      expression: `create index jobs_running_index on jobs (kind, lease_expires_at) where status = 'running'`,
    },
    {
      name: 'jobs_finished_index',
      expression: `create index jobs_finished_index on jobs (finished_at) where status in ('completed', 'failed', 'cancelled')`,
    },
  ],
  properties: {
    id: { type: 'string', columnType: 'text', primary: true },
    kind: { type: 'string', columnType: 'text' },
    teamId: {
      kind: 'm:1',
      entity: () => Team,
      mapToPk: true,
      fieldName: 'team_id',
      deleteRule: 'cascade',
      columnType: 'text',
      nullable: true,
    },
    status: { type: 'string', columnType: 'text', default: 'queued' },
    priority: { type: 'integer', default: 0 },
    concurrencyKey: { type: 'text', nullable: true },
    payload: { type: 'json', columnType: 'jsonb', defaultRaw: `'{}'` },
    runAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    seq: { type: 'bigint', autoincrement: true },
    attempts: { type: 'integer', default: 0 },
    maxAttempts: { type: 'integer' },
    leaseOwner: { type: 'text', nullable: true },
    leaseExpiresAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    errorCode: { type: 'text', nullable: true },
    errorMessage: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    startedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    finishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
