import type { IncomingMessage, Server } from 'node:http';
import type { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer, type WebSocket } from 'ws';
import type { GraphQLContext } from '../src/module/graphql.js';
import { buildSchema } from './index.js';
import { APP_MODULES } from '../src/modules.js';
import { useCredentialLifetime } from './credential-lifetime.js';
import { createErrorShaping, useEnvelopedValidationErrors, type GraphQLErrorShaping } from './errors.js';
import { renderGraphiQLPage } from './graphiql.js';
import { useGraphQLLimits } from './limits.js';
import type { Container } from '../src/container.js';
import type { Actor } from '../src/domain/auth/actor.js';

interface ServerContext {
  /** Over WebSocket: the actor authenticated from connectionParams at connect time. */
  wsActor?: Actor;
}

export type GraphQLServer = YogaServerInstance<ServerContext, GraphQLContext> & { shaping: GraphQLErrorShaping };

const GRAPHIQL_DEFAULT_QUERY = `# Put your API key in the Headers tab below (it was printed on the first start and saved to
# DATA_DIR/api-key), press the refresh button on the left to load the schema, then run this:
{
  me {
    teamId
    via
  }
}
`;

/** graphql-ws's close code for a refused credential; also used when a credential ends. */
const CLOSE_FORBIDDEN = 4403;

/**
 * GraphQL over HTTP (yoga, GraphiQL in a browser) and over WebSocket (graphql-ws), with the
 * same authentication as REST and errors carrying the same envelope in `extensions`. Every
 * request is bounded (schema/limits.ts) before anything executes.
 */
export function createGraphQL(container: Container): GraphQLServer {
  const { services, pubsub, logger, urls, modules } = container;
  const shaping = createErrorShaping({ docsUrl: () => urls.docs(), logger });
  const yoga = createYoga<ServerContext, GraphQLContext>({
    schema: buildSchema(APP_MODULES, (module) => modules.servicesOf(module)),
    graphqlEndpoint: '/graphql',
    logging: false,
    landingPage: false,
    graphiql: {
      title: 'Gleaner GraphQL',
      subscriptionsProtocol: 'WS',
      // Every operation, introspection included, needs a key: show where it goes.
      headers: JSON.stringify({ Authorization: 'Bearer YOUR_API_KEY' }, null, 2),
      defaultEditorToolsVisibility: 'headers',
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
    },
    renderGraphiQL: renderGraphiQLPage,
    plugins: [
      ...useGraphQLLimits(shaping),
      useEnvelopedValidationErrors(shaping),
      useCredentialLifetime(container.live, shaping),
    ],
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
        pubsub,
        transport: wsActor ? 'websocket' : 'http',
        actor: () => {
          if (actor) return actor;
          throw failure;
        },
      };
    },
    maskedErrors: { maskError: (error) => shaping.maskError(error) },
  });
  return Object.assign(yoga, { shaping });
}

/**
 * graphql-ws on the server's `/graphql` path. The connection authenticates once from
 * `connectionParams` (`authorization` or `Authorization`: "Bearer <key>"); a bad credential
 * closes it with 4403, and so does its key's revocation or its token's expiry later.
 */
export function attachGraphQLWebSocket(server: Server, yoga: GraphQLServer, container: Container): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: container.config.server.bodyLimitBytes });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/graphql') {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  type Extra = { request: IncomingMessage; socket: WebSocket; actor?: Actor };
  useServer<Record<string, unknown> | undefined, Extra>(
    {
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const header = (params.authorization ?? params.Authorization) as string | undefined;
        let actor: Actor;
        try {
          actor = await container.services.auth.authenticate(header ?? null);
        } catch {
          return false;
        }
        ctx.extra.actor = actor;
        const { socket } = ctx.extra;
        const forget = container.live.add(actor, (why) =>
          socket.close(CLOSE_FORBIDDEN, why === 'revoked' ? 'API key revoked' : 'access token expired'),
        );
        socket.once('close', forget);
        return true;
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
        let document;
        try {
          document = parse(params.query);
        } catch (err) {
          // A throw here would close the socket (4500): answer this operation's error instead.
          return [yoga.shaping.maskError(err)];
        }
        const errors = validate(schema, document);
        if (errors.length) return errors as GraphQLError[];
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
      },
    },
    wss,
  );
  return wss;
}
