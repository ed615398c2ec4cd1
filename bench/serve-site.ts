/**
 * Serves a generated benchmark site until SIGINT/SIGTERM (or until the parent that forked it goes away).
 *
 *   node --import tsx bench/serve-site.ts [--root bench/site/out] [--port 0] [--gzip] [--delay-ms 0]
 *       [--pages 2000 --seed 1]   (generates the site first when --root holds no such site)
 *
 * Prints one JSON line, {"origin": "http://127.0.0.1:PORT", "pid": ...}; a forked server also
 * sends it as an IPC message.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_SITE_DIR } from './lib/paths.js';
import { ensureSite } from './lib/site/site-generator.js';
import { startStaticSite } from './lib/static-site-server.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: DEFAULT_SITE_DIR },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    gzip: { type: 'boolean', default: false },
    'delay-ms': { type: 'string', default: '0' },
    pages: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});
const root = path.resolve(values.root);
if (values.pages !== undefined) await ensureSite(root, { articles: Number(values.pages), seed: values.seed });
const site = await startStaticSite({
  root,
  host: values.host,
  port: Number(values.port),
  gzip: values.gzip,
  delayMs: Number(values['delay-ms']),
});
const ready = { origin: site.origin, pid: process.pid };
process.stdout.write(`${JSON.stringify(ready)}\n`);
process.send?.({ type: 'ready', ...ready });

const stop = () => void site.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
process.on('disconnect', stop);
