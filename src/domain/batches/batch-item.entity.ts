import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';
import { Batch } from './batch.entity.js';

/**
 * queued → completed | failed, or cancelled with its batch. `running` is not stored: an item is
 * shown running while its job (same id, src/workers/queue) is leased.
 */
export type BatchItemStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** One URL of a batch; its job on the queue has the same id. */
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
  errorCode: string | null = null;
  errorMessage: string | null = null;
  finishedAt: Date | null = null;
}

export const BatchItemSchema = new EntitySchema<BatchItem>({
  class: BatchItem,
  tableName: 'batch_items',
  indexes: [{ name: 'batch_items_batch_id_seq_index', properties: ['batchId', 'seq'] }],
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
    errorCode: { type: 'text', nullable: true },
    errorMessage: { type: 'text', nullable: true },
    finishedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
