import type { z } from 'zod';
import type { Actor } from '../domain/auth/actor.js';
import type { AppError } from '../errors.js';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
}

/**
 * One REST operation of a module, transport-neutral: its schemas (the same zod schemas GraphQL
 * validates with) and a thin handler that calls one service method and presents the result.
 * src/http mounts it (authentication, parsing, errors); the OpenAPI document is generated from
 * these definitions, so the docs cannot drift from what the routes accept.
 *
 * @example
 * defineRoute({
 *   method: 'get',
 *   path: '/v1/batches/{batch_id}',
 *   operationId: 'getBatch',
 *   summary: 'Get a batch',
 *   tags: ['Batches'],
 *   params: BatchIdParams,
 *   responses: { 200: { description: 'The batch.', schema: BatchObject } },
 *   handler: async ({ actor, params }) => presentBatch(await batches.get(actor, params.batch_id)),
 * });
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
  /**
   * The body of this route's error answers when it is not the spec's envelope (monitor
   * creation answers `{error, monitor_id}`): called for every `AppError` thrown while the
   * input is parsed or the handler runs; the status stays the error's. Authentication
   * failures keep the envelope.
   */
  errorBody?: (error: AppError) => unknown;
  handler: (input: HandlerInput<Out<B>, Out<Q>, Out<P>>) => Promise<unknown> | unknown;
}

export interface HandlerInput<B, Q, P> {
  actor: Actor;
  body: B;
  query: Q;
  params: P;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
  /** A request header (case-insensitive), or undefined. */
  header(name: string): string | undefined;
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
