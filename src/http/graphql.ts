import type { IncomingMessage, Server } from 'node:http';
import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { buildSchema } from '../../schema/index.js';
import type { GraphQLContext } from '../../schema/context.js';
import type { Container } from '../container.js';
import type { Actor } from '../domain/auth/actor.js';
import { AppError, toErrorEnvelope } from '../errors.js';

interface ServerContext {
  /** Over WebSocket: the actor authenticated from connectionParams at connect time. */
  wsActor?: Actor;
}

/**
 * GraphQL over HTTP (yoga, GraphiQL in a browser) and over WebSocket (graphql-ws), with the
 * same authentication as REST and errors carrying the same envelope in `extensions`.
 */
export function createGraphQL(container: Container): YogaServerInstance<ServerContext, GraphQLContext> {
  const { services, pubsub, logger, urls } = container;
  return createYoga<ServerContext, GraphQLContext>({
    schema: buildSchema(),
    graphqlEndpoint: '/graphql',
    logging: false,
    landingPage: false,
    graphiql: { title: 'Gleaner GraphQL', subscriptionsProtocol: 'WS' },
    context: async ({ request, wsActor }) => {
      let actor: Actor | null = wsActor ?? null;
      let failure: unknown = null;
      if (!actor) {
        try {
          actor = await services.auth.authenticate(request.headers.get('authorization'));
        } catch (err) {
          failure = err;
        }
      }
      return {
        services,
        pubsub,
        actor: () => {
          if (actor) return actor;
          throw failure;
        },
      };
    },
    maskedErrors: {
      maskError(error) {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (error instanceof GraphQLError && !original) return withEnvelope(error, toAppError(error), urls.docs());
        const { envelope, expected } = toErrorEnvelope(original, { docsUrl: urls.docs() });
        if (!expected) logger.error({ err: original, error_id: envelope.id }, 'unexpected GraphQL error');
        const gqlError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
        return new GraphQLError(envelope.detail ?? envelope.title, {
          nodes: gqlError.nodes,
          path: gqlError.path,
          extensions: { code: envelope.code, envelope },
        });
      },
    },
  });
}

/** Parse and validation errors of the GraphQL document itself are validation errors of the request. */
function toAppError(error: GraphQLError): AppError {
  return new AppError('validation', 'validation_error', error.message);
}

function withEnvelope(error: GraphQLError, appError: AppError, docsUrl: string): GraphQLError {
  const { envelope } = toErrorEnvelope(appError, { docsUrl });
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions: { ...error.extensions, code: envelope.code, envelope },
  });
}

/**
 * graphql-ws on the server's `/graphql` path. The connection authenticates once from
 * `connectionParams` (`authorization` or `Authorization`: "Bearer <key>"); a bad credential
 * closes it with 4403.
 */
export function attachGraphQLWebSocket(
  server: Server,
  yoga: YogaServerInstance<ServerContext, GraphQLContext>,
  container: Container,
): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: container.config.server.bodyLimitBytes });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/graphql') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  type Extra = { request: IncomingMessage; actor?: Actor };
  useServer<Record<string, unknown> | undefined, Extra>(
    {
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const header = (params.authorization ?? params.Authorization) as string | undefined;
        try {
          ctx.extra.actor = await container.services.auth.authenticate(header ?? null);
          return true;
        } catch {
          return false;
        }
      },
      execute: (args) => (args.rootValue as { execute: (a: unknown) => unknown }).execute(args) as never,
      subscribe: (args) => (args.rootValue as { subscribe: (a: unknown) => unknown }).subscribe(args) as never,
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.request.socket,
          params,
          wsActor: ctx.extra.actor,
          request: new Request('http://localhost/graphql'),
        });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        if (errors.length) return errors;
        return args;
      },
    },
    wss,
  );
  return wss;
}
