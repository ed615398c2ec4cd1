import { channelsOf } from './events.js';
import { LocalFanout, type PubSub } from './pubsub.js';

/** One process: events go straight to local subscribers. */
export function createMemoryPubSub(): PubSub & { fanout: LocalFanout } {
  const fanout = new LocalFanout();
  return {
    kind: 'memory',
    fanout,
    async publish(event) {
      fanout.deliver(channelsOf(event), event);
    },
    subscribe: (channel, signal) => fanout.subscribe(channel, signal),
    async close() {},
  };
}
