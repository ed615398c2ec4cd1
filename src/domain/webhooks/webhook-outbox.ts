import type { EntityManager } from '@mikro-orm/postgresql';
import { exec } from '../../db/sql.js';
import { newId } from '../../ids.js';
import type { JobQueue } from '../../workers/queue/job-queue.js';
import { WEBHOOK_JOB } from './webhook-deliverer.js';

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
 * change it announces is committed, and queues its delivery (a job with the event's id) in the
 * same commit. One event per (type, resource): a repeat is ignored.
 */
export class WebhookOutbox {
  constructor(private readonly queue: JobQueue) {}

  async enqueue(em: EntityManager, entry: OutboxEntry): Promise<void> {
    const [event] = await exec<{ id: string }>(
      em,
      `insert into webhook_events (id, team_id, type, resource_id, url, data, status, attempts, created_at)
         values (?, ?, ?, ?, ?, ?, 'pending', 0, now()) on conflict (type, resource_id) do nothing returning id`,
      [newId('event'), entry.teamId, entry.type, entry.resourceId, entry.url, JSON.stringify(entry.data)],
    );
    if (event) await this.queue.enqueue([{ id: event.id, kind: WEBHOOK_JOB, teamId: entry.teamId }], em);
  }
}
