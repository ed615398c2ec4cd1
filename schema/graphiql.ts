import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type * as RenderGraphiQL from '@graphql-yoga/render-graphiql/graphiql';
import type { GraphiQLOptions } from 'graphql-yoga';

/**
 * GraphiQL served entirely by the service (no CDN: it works offline and behind a firewall).
 * The page is small; its scripts, styles and Monaco workers (~9 MB, from
 * `@graphql-yoga/render-graphiql`) are separate files under `GRAPHIQL_ASSETS_PATH`, loaded
 * into memory on first use and revalidated by ETag.
 */
export const GRAPHIQL_ASSETS_PATH = '/graphql/assets';

type Bundle = typeof RenderGraphiQL;

interface Asset {
  type: string;
  body: (bundle: Bundle) => string | Buffer;
}

const ASSETS: Record<string, Asset> = {
  'graphiql.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.js },
  'graphiql.css': { type: 'text/css; charset=utf-8', body: (b) => b.css },
  'editor.worker.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.editorWorkerService },
  'json.worker.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.jsonWorker },
  'graphql.worker.js': { type: 'text/javascript; charset=utf-8', body: (b) => b.graphqlWorker },
  'favicon.ico': {
    type: 'image/x-icon',
    body: (b) => Buffer.from(b.favicon.slice(b.favicon.indexOf(',') + 1), 'base64'),
  },
};

/** Monaco asks for a worker by label; render-graphiql names these three. */
const WORKERS = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };

/** The GraphiQL page (Yoga's `renderGraphiQL` option): the options go to GraphiQL as JSON. */
export function renderGraphiQLPage(options: GraphiQLOptions): string {
  const asset = (file: string) => `${GRAPHIQL_ASSETS_PATH}/${file}`;
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
  const title = (options.title ?? 'GraphiQL').replace(/[<>&"]/g, '');
  const workers = Object.fromEntries(Object.entries(WORKERS).map(([label, file]) => [label, asset(file)]));
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="${asset('favicon.ico')}"><link rel="stylesheet" href="${asset('graphiql.css')}"></head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript><div id="root"></div>
<script>
const workers = ${json(workers)};
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => workers[label] };
</script>
<script src="${asset('graphiql.js')}"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${json(options)});</script>
</body>
</html>`;
}

interface Loaded {
  bytes: Buffer;
  gzipped: () => Promise<Buffer>;
}

let bundle: Promise<Bundle> | null = null;
const loaded = new Map<string, Promise<Loaded>>();
let etag: string | null = null;

/**
 * The response for `GET {GRAPHIQL_ASSETS_PATH}/{file}`, or null for an unknown file. Gzipped
 * when the client accepts it; 304 when its `If-None-Match` still matches.
 */
export async function graphiqlAsset(file: string, headers: Headers): Promise<Response | null> {
  const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (!asset) return null;
  const tag = bundleTag();
  const common = { etag: tag, 'cache-control': 'no-cache', vary: 'accept-encoding' };
  if (headers.get('if-none-match') === tag) return new Response(null, { status: 304, headers: common });
  const { bytes, gzipped } = await load(file, asset);
  const gzipOk = /\bgzip\b/.test(headers.get('accept-encoding') ?? '');
  const body = gzipOk ? await gzipped() : bytes;
  return new Response(new Uint8Array(body), {
    headers: { ...common, 'content-type': asset.type, ...(gzipOk ? { 'content-encoding': 'gzip' } : {}) },
  });
}

function load(file: string, asset: Asset): Promise<Loaded> {
  let entry = loaded.get(file);
  if (!entry) {
    bundle ??= import('@graphql-yoga/render-graphiql/graphiql');
    entry = bundle.then((b) => {
      const raw = asset.body(b);
      const bytes = typeof raw === 'string' ? Buffer.from(raw) : raw;
      let compressed: Promise<Buffer> | null = null;
      return { bytes, gzipped: () => (compressed ??= promisify(gzip)(bytes)) };
    });
    loaded.set(file, entry);
  }
  return entry;
}

/** Changes with the installed render-graphiql, without loading its 9 MB. */
function bundleTag(): string {
  if (etag) return etag;
  const file = createRequire(import.meta.url).resolve('@graphql-yoga/render-graphiql/graphiql');
  const { size, mtimeMs } = statSync(file);
  etag = `"${createHash('sha256').update(`${file} ${size} ${mtimeMs}`).digest('hex').slice(0, 16)}"`;
  return etag;
}
