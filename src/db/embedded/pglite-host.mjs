// Runs inside a worker thread of the process that owns DATA_DIR: opens PGlite on the
// directory and serves it over the Postgres wire protocol with pglite-socket, so the owner's
// API, its Bree threads and other local processes all connect the same way, and PGlite's
// single-threaded WASM work never blocks the API's event loop.
//
// Plain JavaScript on purpose: the thread needs no TypeScript loader (tsx costs memory and
// boot time in every thread that registers it). Contract: workerData is a HostOptions
// (embedded-database.ts); messages out are HostMessage.
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const options = workerData;
const port = parentPort;
// 16 MB of shared buffers (PGlite's default is 128 MB): plenty for one machine's service (the
// files stay in the OS page cache), and ~130 MB less resident memory.
const settings = { postgresqlconf: ['shared_buffers = 16MB'] };
// PGlite is the process's only WebAssembly. V8 compiles it twice by default (baseline code at
// once, optimised code for hot functions later, both kept): baseline only saves ~70 MB of
// resident memory, and measured on inserts and point queries it is as fast (2.5-2.8 s against
// 2.9-3.1 s for 3,000 of each), because the time goes to the protocol, not to the WASM code.
// The flag is process-wide and must be set before the module is compiled, hence here.
v8.setFlagsFromString('--liftoff-only');

try {
  const db = await PGlite.create(options.dataDir, settings);
  if (options.initOnly) {
    // First start: initdb's memory stays with this short-lived thread, not the long-lived host.
    await db.close();
    port.postMessage({ type: 'closed' });
  } else {
    const server = new PGLiteSocketServer(
      options.socketPath
        ? { db, path: options.socketPath, maxConnections: options.maxConnections }
        : { db, host: '127.0.0.1', port: 0, maxConnections: options.maxConnections },
    );
    await server.start();
    const conn = server.getServerConn();
    port.postMessage({
      type: 'ready',
      socketPath: options.socketPath,
      port: options.socketPath ? null : Number(conn.slice(conn.lastIndexOf(':') + 1)),
    });
    port.on('message', (msg) => {
      if (msg.type !== 'close') return;
      void (async () => {
        await server.stop();
        await db.close();
        port.postMessage({ type: 'closed' });
      })();
    });
  }
} catch (err) {
  port.postMessage({ type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
