import { Hono, type Context } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import type { Container } from '../container.js';
import type { Actor } from '../domain/auth/actor.js';
import { AppError } from '../errors.js';
import { createBlobUrlVerifier } from '../storage/blob-urls.js';
import { createBlobRoutes } from './blobs.routes.js';
import { renderDocsPage, renderErrorsPage } from './docs-page.js';
import type { AppEnv } from './env.js';
import { createErrorHandler, notFoundHandler } from './errors.js';
import { createHealthRoutes } from './health.routes.js';
import { bodyLimit, payloadTooLarge } from './middleware/body-limit.js';
import { idempotency } from './middleware/idempotency.js';
import { requestContext } from './middleware/request-context.js';
import { buildOpenApiDocument } from './openapi.js';
import type { AnyRoute } from '../module/route.js';
import { mountRoutes } from './mount-routes.js';

export interface HttpApp {
  app: Hono<AppEnv>;
  routes: AnyRoute[];
  /** Resolves the caller of a request (cached per request). */
  authenticate: (c: Context<AppEnv>) => Promise<Actor>;
}

/**
 * The REST surface: `/v1` operations, health, docs. GraphQL and hosted objects are mounted
 * on the same app by the server. Every error, including unknown routes, malformed JSON and
 * oversized bodies, leaves through the one error handler in the spec's envelope.
 */
export function createHttpApp(container: Container): HttpApp {
  const { services, config, urls } = container;
  const app = new Hono<AppEnv>();
  const routes = container.modules.routes();
  const authenticate = async (c: Context<AppEnv>): Promise<Actor> => {
    const cached = c.get('actor');
    if (cached) return cached;
    const actor = await services.auth.authenticate(c.req.header('authorization'));
    c.set('actor', actor);
    return actor;
  };

  app.use('*', requestContext(container.logger));
  app.use('/v1/*', bodyLimit(config.server.bodyLimitBytes));
  // yoga reads its own body: Hono's limit counts chunked GraphQL bodies as they stream in.
  app.use(
    '/graphql',
    honoBodyLimit({
      maxSize: config.server.bodyLimitBytes,
      onError: () => {
        throw payloadTooLarge(config.server.bodyLimitBytes);
      },
    }),
  );
  app.use('/v1/*', idempotency(services.idempotency, authenticate));

  app.route('/', createHealthRoutes(container));
  // Nothing lives at the root: send people (and browsers) to the API reference.
  app.get('/', (c) => c.redirect('/docs'));

  let openapi: Record<string, unknown> | null = null;
  const document = () =>
    (openapi ??= buildOpenApiDocument(routes, { version: container.version, serverUrl: urls.base() }));
  // Public, unlike every other /v1 route: the docs page (/docs) reads it without a key.
  app.get('/v1/openapi.json', (c) => c.json(document()));
  app.get('/docs', (c) => c.html(renderDocsPage(document())));
  app.get('/docs/api-reference/errors', (c) => c.html(renderErrorsPage()!));
  app.get('/docs/api-reference/errors/:slug', (c) => {
    const page = renderErrorsPage(c.req.param('slug'));
    if (!page) throw new AppError('not_found', 'route_not_found', `no error type ${c.req.param('slug')}`);
    return c.html(page);
  });

  // Hosted objects: signed URLs, no API key (decisions.md, "Retrieve").
  app.route('/', createBlobRoutes<AppEnv>(container.blobs, createBlobUrlVerifier(container.signingSecret)));
  mountRoutes(app, routes, authenticate);

  // Every /v1 endpoint requires the credential and a missing or bad one is 401 first
  // (spec, "Authentication"): an unknown /v1 route is 404 only to a caller with a valid key.
  app.notFound(async (c) => {
    if (/^\/v1(\/|$)/.test(new URL(c.req.url).pathname)) await authenticate(c);
    return notFoundHandler(c);
  });
  app.onError(createErrorHandler({ docsUrl: () => urls.docs(), bodyLimitBytes: config.server.bodyLimitBytes }));
  return { app, routes, authenticate };
}
