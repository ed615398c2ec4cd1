import { EntitySchema } from '@mikro-orm/core';
import { columns } from '../shared/columns.js';

/** in_progress → completed (every item ended) | cancelled (by its client); `failed` only when the batch itself could not run. */
export type BatchStatus = 'in_progress' | 'completed' | 'failed' | 'cancelled';

/** A batch of URLs run asynchronously; its items are the work queue. */
export class Batch {
  id!: string;
  teamId!: string;
  status: BatchStatus = 'in_progress';
  totalUrls!: number;
  itemsCompleted = 0;
  itemsFailed = 0;
  numberRetried = 0;
  /** The scrape options every item runs with (formats, parser, links_on_page, country, ...). */
  options: Record<string, unknown> = {};
  parser: string | null = null;
  country: string | null = null;
  metadata: Record<string, string> = {};
  webhook: string | null = null;
  createdAt: Date = new Date();
  /** When the batch ended: completed, or cancelled. */
  completedAt: Date | null = null;
}

export const BatchSchema = new EntitySchema<Batch>({
  class: Batch,
  tableName: 'batches',
  indexes: [{ name: 'batches_team_id_created_at_index', properties: ['teamId', 'createdAt'] }],
  properties: {
    id: columns.id(),
    teamId: columns.team(),
    status: { type: 'string', columnType: 'text' },
    totalUrls: { type: 'integer' },
    itemsCompleted: { type: 'integer', default: 0 },
    itemsFailed: { type: 'integer', default: 0 },
    numberRetried: { type: 'integer', default: 0 },
    options: columns.jsonb(),
    parser: { type: 'text', nullable: true },
    country: { type: 'text', nullable: true },
    metadata: columns.jsonb(),
    webhook: { type: 'text', nullable: true },
    createdAt: columns.createdAt(),
    completedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
