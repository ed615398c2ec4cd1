import type { MessagePort } from 'node:worker_threads';
import type { DomainEvent } from './events.js';
import type { PubSub } from './pubsub.js';

/** The message a worker thread posts to relay an event through its process's pubsub. */
export interface RelayedEvent {
  type: 'pubsub';
  event: DomainEvent;
}

export const isRelayedEvent = (message: unknown): message is RelayedEvent =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'pubsub';

/**
 * A worker thread's pubsub when its process uses the in-memory one: events go to the parent
 * thread, which publishes them to its subscribers. Threads only publish.
 */
export function createThreadPubSub(port: MessagePort): PubSub {
  return {
    kind: 'memory',
    async publish(event) {
      port.postMessage({ type: 'pubsub', event } satisfies RelayedEvent);
    },
    subscribe() {
      throw new Error('worker threads publish events; they do not subscribe');
    },
    async close() {},
  };
}
