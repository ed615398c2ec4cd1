import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Actor } from '../domain/auth/actor.js';
import { AppError } from '../errors.js';
import { Reply, successStatus, type AnyRoute } from '../module/route.js';
import { parseInput } from '../validation.js';
import { readJsonBody, readQuery } from './body.js';
import type { AppEnv } from './env.js';

/**
 * The body of a route that declares none: nothing, `null` or `{}`. A body that is there is
 * still read, so malformed JSON or a field the route does not take is a 400, never ignored.
 */
const NO_BODY = z.strictObject({}).optional();

/** Registers the modules' routes on the app; authentication runs per route (public routes opt out). */
export function mountRoutes(
  app: Hono<AppEnv>,
  routes: AnyRoute[],
  authenticate: (c: Context<AppEnv>) => Promise<Actor>,
): void {
  for (const route of routes) {
    const honoPath = route.path.replace(/\{([^}]+)\}/g, ':$1');
    app.on(route.method.toUpperCase(), honoPath, async (c) => {
      const actor = route.auth === false ? (undefined as unknown as Actor) : await authenticate(c);
      if (!route.errorBody) return answer(c, route, actor);
      try {
        return await answer(c, route, actor);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return c.json(route.errorBody(err) as object, err.status as 400, err.headers);
      }
    });
  }
}

async function answer(c: Context<AppEnv>, route: AnyRoute, actor: Actor): Promise<Response> {
  const params = route.params ? parseInput(route.params, c.req.param()) : undefined;
  const query = route.query ? parseInput(route.query, readQuery(c)) : undefined;
  const body = parseInput(route.body ?? NO_BODY, await readJsonBody(c)) as unknown;
  const result = await route.handler({
    actor,
    body: route.body ? body : undefined,
    query,
    params,
    signal: c.req.raw.signal,
    header: (name) => c.req.header(name),
  });
  if (result instanceof Response) return result;
  if (result instanceof Reply) return c.json(result.body as object, result.status as 200, result.headers);
  return c.json(result as object, successStatus(route) as 200);
}
