import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';
import { Batch } from './batch.entity.js';

/** queued → running (leased) → completed | failed; a failed attempt that may be retried goes back to queued. */
export type BatchItemStatus = 'queued' | 'running' | 'completed' | 'failed';

/** One URL of a batch, and its place in the work queue. */
export class BatchItem {
  id!: string;
  batchId!: string;
  teamId!: string;
  /** Position in the batch: items pages are ordered by it. */
  seq!: number;
  customId!: string;
  url!: string;
  /** Lower-cased host, for per-host politeness. */
  host!: string;
  metadata: Record<string, string> | null = null;
  /** Where the content will be retrievable; known from creation. */
  retrieveId!: string;
  status: BatchItemStatus = 'queued';
  attempts = 0;
  runAt: Date = new Date();
  leaseOwner: string | null = null;
  leaseExpiresAt: Date | null = null;
  errorCode: string | null = null;
  errorMessage: string | null = null;
  finishedAt: Date | null = null;
}

export const BatchItemSchema = new EntitySchema<BatchItem>({
  class: BatchItem,
  tableName: 'batch_items',
  indexes: [
    { name: 'batch_items_batch_id_seq_index', properties: ['batchId', 'seq'] },
    { name: 'batch_items_status_run_at_index', properties: ['status', 'runAt'] },
    { name: 'batch_items_status_lease_expires_at_index', properties: ['status', 'leaseExpiresAt'] },
  ],
  uniques: [{ name: 'batch_items_batch_id_custom_id_unique', properties: ['batchId', 'customId'] }],
  properties: {
    id: columns.id(),
    batchId: {
      kind: 'm:1',
      entity: () => Batch,
      mapToPk: true,
      fieldName: 'batch_id',
      deleteRule: 'cascade',
      columnType: 'text',
    },
    teamId: { type: 'string', columnType: 'text' },
    seq: { type: 'integer' },
    customId: { type: 'string', columnType: 'text' },
    url: { type: 'string', columnType: 'text' },
    host: { type: 'string', columnType: 'text' },
    metadata: { type: 'json', columnType: 'jsonb', nullable: true },
    retrieveId: { type: 'string', columnType: 'text' },
    status: { type: 'string', columnType: 'text' },
    attempts: { type: 'integer', default: 0 },
    runAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
    leaseOwner: { type: 'text', nullable: true },
    leaseExpiresAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    errorCode: { type: 'text', nullable: true },
    errorMessage: { type: 'text', nullable: true },
    finishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
