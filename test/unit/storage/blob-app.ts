import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { AppError, toErrorEnvelope } from '../../../src/errors.js';
import { createBlobRoutes } from '../../../src/http/blobs.routes.js';
import type { BlobStore } from '../../../src/storage/blob-store.js';
import type { BlobUrlVerifier } from '../../../src/storage/blob-urls.js';

export const DOCS_URL = 'http://docs.test';

/**
 * The blob routes on an app with a minimal stand-in for the service's error handler
 * (AppError → spec envelope as application/problem+json), as the real app mounts them.
 */
export function createBlobTestApp(store: BlobStore, verifier: BlobUrlVerifier): Hono {
  const app = new Hono();
  app.route('/', createBlobRoutes(store, verifier));
  app.onError((err) => {
    const { envelope } = toErrorEnvelope(err, { docsUrl: DOCS_URL });
    const headers = { 'content-type': 'application/problem+json', ...(err instanceof AppError ? err.headers : {}) };
    return new Response(JSON.stringify(envelope), { status: envelope.status, headers });
  });
  return app;
}

export interface Listening {
  origin: string;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 with a free port. */
export async function listen(app: Hono): Promise<Listening> {
  let server: Server | undefined;
  const address = await new Promise<AddressInfo>((resolve) => {
    // An HTTP/1 server, since no TLS or HTTP/2 options are passed.
    server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, resolve) as Server;
  });
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server?.closeAllConnections();
        server?.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
