import { Hono } from 'hono';
import type { Container } from '../container.js';
import { AppError } from '../errors.js';
import type { AppEnv } from './env.js';

/**
 * `/healthz` (the process answers) and `/readyz` (and can reach its database): served by the
 * API with everything else, and alone by `--role worker` (health-server.ts) so that one probe,
 * the Dockerfile's HEALTHCHECK, works for every role.
 */
export function createHealthRoutes(container: Container): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/healthz', (c) => c.json({ status: 'ok', version: container.version, role: container.role }));
  routes.get('/readyz', async (c) => {
    try {
      await container.db.ping();
      return c.json({ status: 'ready', database: container.db.kind });
    } catch (err) {
      throw new AppError('unavailable', 'database_unavailable', `database is not reachable: ${(err as Error).message}`);
    }
  });
  return routes;
}
