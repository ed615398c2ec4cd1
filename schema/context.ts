import type { Services } from '../src/container.js';
import type { Actor } from '../src/domain/auth/actor.js';
import type { PubSub } from '../src/pubsub/pubsub.js';

/** What every resolver receives. `actor()` throws the authentication error when there is no valid credential. */
export interface GraphQLContext {
  actor: () => Actor;
  services: Services;
  pubsub: PubSub;
  /** How the operation arrived: over HTTP (subscriptions then stream as server-sent events) or a WebSocket. */
  transport: 'http' | 'websocket';
}
