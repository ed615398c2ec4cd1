import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import type { Container } from './container.js';
import { createHttpApp, type HttpApp } from './http/app.js';
import { createClientErrorHandler } from './http/client-error.js';
import { GRAPHIQL_ASSETS_PATH, graphiqlAsset } from '../schema/graphiql.js';
import { attachGraphQLWebSocket, createGraphQL } from '../schema/server.js';

export interface RunningServer {
  http: HttpApp;
  server: Server;
  port: number;
  url: string;
  /** Stops accepting, drains in-flight requests up to the shutdown timeout, closes sockets. */
  close(): Promise<void>;
}

/** Serves REST, GraphQL (HTTP and WebSocket) and hosted objects on one port. */
export async function startServer(container: Container): Promise<RunningServer> {
  const { config, logger } = container;
  const yoga = createGraphQL(container);
  const http = createHttpApp(container);
  http.app.on(['GET', 'POST', 'OPTIONS'], '/graphql', (c) => yoga.fetch(c.req.raw, {}));
  http.app.get(
    `${GRAPHIQL_ASSETS_PATH}/:file`,
    async (c) => (await graphiqlAsset(c.req.param('file'), c.req.raw.headers)) ?? c.notFound(),
  );
  const server = createAdaptorServer({ fetch: http.app.fetch, hostname: config.server.host }) as Server;
  server.keepAliveTimeout = 65_000;
  server.on(
    'clientError',
    createClientErrorHandler(() => container.urls.docs(), logger),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  container.urls.setBoundPort(port);
  const wss = attachGraphQLWebSocket(server, yoga, container);
  logger.info({ port, host: config.server.host, url: container.urls.base() }, 'listening');

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= new Promise<void>((resolve) => {
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      wss.close();
      const force = setTimeout(() => {
        logger.warn('shutdown timeout reached; closing remaining connections');
        server.closeAllConnections();
      }, config.server.shutdownTimeoutMs);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    }));
  return { http, server, port, url: container.urls.base(), close };
}
