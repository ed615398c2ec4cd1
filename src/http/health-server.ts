import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import type { Container } from '../container.js';
import type { AppEnv } from './env.js';
import { createErrorHandler, notFoundHandler } from './errors.js';
import { createHealthRoutes } from './health.routes.js';

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The HTTP face of a process that serves no API (`--role worker`): only `/healthz` and
 * `/readyz`, on the same PORT and HOST the API would use, so container probes need not know
 * the role. Requests are not logged (a probe every few seconds would drown the log).
 */
export async function startHealthServer(container: Container): Promise<HealthServer> {
  const { config, logger } = container;
  const app = new Hono<AppEnv>();
  app.route('/', createHealthRoutes(container));
  app.notFound(notFoundHandler);
  app.onError(
    createErrorHandler({ docsUrl: () => container.urls.docs(), bodyLimitBytes: config.server.bodyLimitBytes }),
  );
  const server = createAdaptorServer({ fetch: app.fetch, hostname: config.server.host }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`PORT ${config.server.port} is in use: give the worker its own PORT (its health endpoints)`)
          : err,
      ),
    );
    server.listen(config.server.port, config.server.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, host: config.server.host, role: container.role }, 'health endpoints listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
