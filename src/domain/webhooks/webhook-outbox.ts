import type { EntityManager } from '@mikro-orm/postgresql';
import { newId } from '../../ids.js';

export interface OutboxEntry {
  teamId: string;
  /** `batch.completed`, `crawl.completed`. */
  type: string;
  resourceId: string;
  url: string;
  data: Record<string, unknown>;
}

/**
 * Writes webhook events inside the caller's transaction, so an event exists exactly when the
 * change it announces is committed. One event per (type, resource): a repeat is ignored.
 */
export class WebhookOutbox {
  async enqueue(em: EntityManager, entry: OutboxEntry): Promise<void> {
    await em.getConnection().execute(
      `insert into webhook_events (id, team_id, type, resource_id, url, data, status, attempts, next_attempt_at, created_at)
         values (?, ?, ?, ?, ?, ?, 'pending', 0, now(), now()) on conflict (type, resource_id) do nothing`,
      [newId('event'), entry.teamId, entry.type, entry.resourceId, entry.url, JSON.stringify(entry.data)],
      'run',
      em.getTransactionContext(),
    );
  }
}
