/**
 * Every progress event the service publishes. GraphQL subscriptions, SSE streams and
 * webhooks read them from the pubsub; each names its team so subscribers see only theirs.
 * Modules define their own events as `ModuleEvent`s (no edit here); payloads stay small
 * (NOTIFY carries ≤ 8 kB).
 */
export type DomainEvent = ApiKeyEvent | BatchProgressEvent | CrawlProgressEvent | ModuleEvent;

/**
 * An event a module defines: its `type` is `<module>.<what>` (`monitor.progress`), and
 * `subject` names the resource whose channel it also goes to (`monitor:<id>`).
 *
 * @example
 * await pubsub.publish({ type: 'monitor.progress', teamId, subject: { kind: 'monitor', id }, at: Date.now(), phase: 'planning' });
 */
export interface ModuleEvent {
  type: `${string}.${string}`;
  teamId: string;
  subject?: { kind: string; id: string };
  /** Epoch milliseconds. */
  at: number;
  [field: string]: unknown;
}

export interface ApiKeyEvent {
  type: 'api_key.created' | 'api_key.revoked';
  teamId: string;
  keyId: string;
  name: string;
  /** Epoch milliseconds. */
  at: number;
}

/** A batch advanced (throttled), or finished (always sent). */
export interface BatchProgressEvent {
  type: 'batch.progress';
  teamId: string;
  batchId: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  retried: number;
  /** Epoch milliseconds. */
  at: number;
}

/** A crawl advanced (throttled), or completed (always sent). */
export interface CrawlProgressEvent {
  type: 'crawl.progress';
  teamId: string;
  crawlId: string;
  status: string;
  pagesCount: number;
  failedCount: number;
  /** URLs robots.txt did not let the crawl fetch. */
  blockedCount: number;
  currentDepth: number;
  /** Epoch milliseconds. */
  at: number;
}

export type DomainEventType = DomainEvent['type'];

/** Channels an event is delivered on: its team's, and its resource's when it has one. */
export function channelsOf(event: DomainEvent): string[] {
  const channels = [teamChannel(event.teamId)];
  const subject = subjectOf(event);
  if (subject) channels.push(resourceChannel(subject.kind, subject.id));
  return channels;
}

function subjectOf(event: DomainEvent): { kind: string; id: string } | null {
  const e = event as {
    subject?: { kind: string; id: string };
    keyId?: unknown;
    batchId?: unknown;
    crawlId?: unknown;
  };
  if (e.subject) return e.subject;
  if (typeof e.keyId === 'string') return { kind: 'key', id: e.keyId };
  if (typeof e.batchId === 'string') return { kind: 'batch', id: e.batchId };
  if (typeof e.crawlId === 'string') return { kind: 'crawl', id: e.crawlId };
  return null;
}

export const teamChannel = (teamId: string) => `team:${teamId}`;
export const resourceChannel = (kind: string, id: string) => `${kind}:${id}`;
