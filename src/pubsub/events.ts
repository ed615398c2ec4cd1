/**
 * Every progress event the service publishes. GraphQL subscriptions, SSE streams and
 * webhooks read them from the pubsub; each names its team so subscribers see only theirs.
 * Add a member to this union to add an event; payloads stay small (NOTIFY carries ≤ 8 kB).
 */
export type DomainEvent = ApiKeyEvent | BatchProgressEvent | CrawlProgressEvent;

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
  if ('keyId' in event) channels.push(resourceChannel('key', event.keyId));
  if ('batchId' in event) channels.push(resourceChannel('batch', event.batchId));
  if ('crawlId' in event) channels.push(resourceChannel('crawl', event.crawlId));
  return channels;
}

export const teamChannel = (teamId: string) => `team:${teamId}`;
export const resourceChannel = (kind: string, id: string) => `${kind}:${id}`;
