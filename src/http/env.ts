import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.js';
import type { Actor } from '../domain/auth/actor.js';

/** Per-request variables shared by the middleware and routes. */
export interface AppEnv {
  /** Node's request and response under @hono/node-server; absent for in-process `app.request`. */
  Bindings: { incoming?: IncomingMessage; outgoing?: ServerResponse } | undefined;
  Variables: {
    requestId: string;
    log: Logger;
    actor: Actor;
    rawBody: string | undefined;
    /** Largest body the route may read (set by the body-limit middleware). */
    bodyLimit: number | undefined;
  };
}
