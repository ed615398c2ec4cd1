import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { ExecutionResult } from 'graphql';
import type { CredentialEnd, LiveConnections } from '../src/domain/auth/live-connections.js';
import type { Actor } from '../src/domain/auth/actor.js';
import { errors } from '../src/errors.js';
import type { GraphQLContext } from './context.js';
import type { GraphQLErrorShaping } from './errors.js';

/**
 * Subscriptions streamed over HTTP (server-sent events) end when the credential that opened
 * them is revoked or expires: a last result carries the 401 envelope, then the stream closes.
 * Over WebSocket the socket itself is registered and closed (4403) instead.
 */
export function useCredentialLifetime(live: LiveConnections, shaping: GraphQLErrorShaping): Plugin<GraphQLContext> {
  const last = (why: CredentialEnd): ExecutionResult => ({
    errors: [
      shaping.toGraphQLError(
        errors.unauthorized(why === 'revoked' ? 'this API key has been revoked' : 'the access token has expired'),
      ),
    ],
  });
  return {
    onSubscribe: ({ args }) => ({
      onSubscribeResult: ({ result, setResult }) => {
        if (!isAsyncIterable(result) || args.contextValue.transport !== 'http') return;
        let actor: Actor;
        try {
          actor = args.contextValue.actor();
        } catch {
          return; // nothing was subscribed without a credential
        }
        setResult(untilCredentialEnds(result, live, actor, last));
      },
    }),
  };
}

/** `source`'s results until the credential ends; then `last(why)` once, and the end. */
export function untilCredentialEnds<T>(
  source: AsyncIterable<T>,
  live: LiveConnections,
  actor: Actor,
  last: (why: CredentialEnd) => T,
): AsyncIterableIterator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let forget = () => undefined as void;
  const ended = new Promise<{ why: CredentialEnd }>((resolve) => {
    forget = live.add(actor, (why) => resolve({ why }));
  });
  let done = false;
  const stop = () => {
    done = true;
    forget();
    // Not awaited: a generator waiting for its next event finishes its return only after it.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  };
  const stream: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => stream,
    async next() {
      if (done) return { value: undefined, done: true };
      const step = await Promise.race([iterator.next(), ended]);
      if ('why' in step) {
        stop();
        return { value: last(step.why), done: false };
      }
      if (step.done) {
        done = true;
        forget();
      }
      return step;
    },
    async return() {
      if (!done) stop();
      return { value: undefined, done: true };
    },
  };
  return stream;
}
