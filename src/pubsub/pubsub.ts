import type { DomainEvent } from './events.js';

/**
 * Typed publish/subscribe for progress events. `memory` serves one process; `postgres`
 * (LISTEN/NOTIFY) lets any process sharing the database publish to any other's subscribers.
 */
export interface PubSub {
  readonly kind: 'memory' | 'postgres';
  publish(event: DomainEvent): Promise<void>;
  /** Events on `channel` from now on, until `signal` aborts or the iterator is returned. */
  subscribe(channel: string, signal?: AbortSignal): AsyncIterableIterator<DomainEvent>;
  close(): Promise<void>;
}

type Listener = (event: DomainEvent) => void;

/** Fan-out of events to local listeners by channel; the transport-independent half of every pubsub. */
export class LocalFanout {
  private readonly listeners = new Map<string, Set<Listener>>();

  deliver(channels: string[], event: DomainEvent): void {
    for (const channel of channels) for (const listener of this.listeners.get(channel) ?? []) listener(event);
  }

  get size(): number {
    let n = 0;
    for (const set of this.listeners.values()) n += set.size;
    return n;
  }

  subscribe(channel: string, signal?: AbortSignal, maxBuffered = 1000): AsyncIterableIterator<DomainEvent> {
    const buffer: DomainEvent[] = [];
    let wake: (() => void) | null = null;
    let done = false;
    const listener: Listener = (event) => {
      // A subscriber that stops reading must not grow memory: keep the newest events.
      if (buffer.length >= maxBuffered) buffer.shift();
      buffer.push(event);
      wake?.();
    };
    const set = this.listeners.get(channel) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(channel, set);
    const stop = () => {
      if (done) return;
      done = true;
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(channel);
      wake?.();
    };
    signal?.addEventListener('abort', stop, { once: true });
    const iterator: AsyncIterableIterator<DomainEvent> = {
      [Symbol.asyncIterator]: () => iterator,
      async next() {
        while (buffer.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        if (buffer.length > 0) return { value: buffer.shift()!, done: false };
        return { value: undefined, done: true };
      },
      async return() {
        stop();
        return { value: undefined, done: true };
      },
    };
    return iterator;
  }
}
