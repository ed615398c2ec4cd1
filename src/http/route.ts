import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { Actor } from '../domain/auth/actor.js';
import { parseInput } from '../validation.js';
import { readJsonBody, readQuery } from './body.js';
import type { AppEnv } from './env.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
}

/**
 * One REST operation: its schemas (the same zod schemas GraphQL validates with) and a thin
 * handler that calls one service method and presents the result. The OpenAPI document is
 * generated from these definitions, so the docs cannot drift from what the routes accept.
 */
export interface RouteSpec<
  B extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  P extends z.ZodType | undefined,
> {
  method: Method;
  /** OpenAPI-style path: `/v1/scrapes/{scrape_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** Default true: the route requires a bearer credential. */
  auth?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  /** Documented responses; the first 2xx is the status of a plain return value. */
  responses: Record<number, ResponseSpec>;
  handler: (input: HandlerInput<Out<B>, Out<Q>, Out<P>>) => Promise<unknown> | unknown;
}

export interface HandlerInput<B, Q, P> {
  c: Context<AppEnv>;
  actor: Actor;
  body: B;
  query: Q;
  params: P;
}

export type AnyRoute = RouteSpec<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>;

export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<B, Q, P>): AnyRoute {
  return spec as unknown as AnyRoute;
}

/** A handler result with an explicit status and headers. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export function successStatus(route: AnyRoute): number {
  const status = Object.keys(route.responses)
    .map(Number)
    .find((s) => s >= 200 && s < 300);
  return status ?? 200;
}

/**
 * The body of a route that declares none: nothing, `null` or `{}`. A body that is there is
 * still read, so malformed JSON or a field the route does not take is a 400, never ignored.
 */
const NO_BODY = z.strictObject({}).optional();

/** Registers routes on the app; authentication runs per route (public routes opt out). */
export function mountRoutes(
  app: Hono<AppEnv>,
  routes: AnyRoute[],
  authenticate: (c: Context<AppEnv>) => Promise<Actor>,
): void {
  for (const route of routes) {
    const honoPath = route.path.replace(/\{([^}]+)\}/g, ':$1');
    app.on(route.method.toUpperCase(), honoPath, async (c) => {
      const actor = route.auth === false ? (undefined as unknown as Actor) : await authenticate(c);
      const params = route.params ? parseInput(route.params, c.req.param()) : undefined;
      const query = route.query ? parseInput(route.query, readQuery(c)) : undefined;
      const body = parseInput(route.body ?? NO_BODY, await readJsonBody(c)) as unknown;
      const result = await route.handler({ c, actor, body: route.body ? body : undefined, query, params });
      if (result instanceof Response) return result;
      if (result instanceof Reply) return c.json(result.body as object, result.status as 200, result.headers);
      return c.json(result as object, successStatus(route) as 200);
    });
  }
}
