import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** workerData of pglite-host.mjs. */
interface HostOptions {
  /** PGlite data directory; `memory://` for a throwaway database. */
  dataDir: string;
  /** Unix socket path, or null to listen on 127.0.0.1 with a free port. */
  socketPath: string | null;
  maxConnections: number;
  /** Create the database (initdb) and exit. */
  initOnly?: boolean;
}

/** Messages of pglite-host.mjs. */
type HostMessage =
  | { type: 'ready'; socketPath: string | null; port: number | null }
  | { type: 'error'; message: string }
  | { type: 'closed' };

const HOST = new URL('./pglite-host.mjs', import.meta.url);

/** Where a Postgres client connects: a unix socket directory (`host` starting with `/`) or TCP. */
export interface PgTarget {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
}

export interface EmbeddedDatabase {
  target: PgTarget;
  /** True in the process that opened the directory; false when attached to its owner. */
  owner: boolean;
  close(): Promise<void>;
}

interface LockContent {
  pid: number;
  hostname: string;
  state: 'starting' | 'ready';
  socketDir?: string | null;
  port?: number | null;
}

const LOCK_FILE = 'pglite.lock';
const SOCKET_PORT = 5432;
// sun_path is 108 bytes on Linux, 104 on macOS; keep a margin.
const MAX_SOCKET_PATH = 100;
const ATTACH_TIMEOUT_MS = 60_000;
const log = (msg: string) => process.stderr.write(`${msg}\n`);

/**
 * Whether `dataDir` holds an embedded database, or a process owning the directory is creating
 * one. Tools that should not create a database by accident (the keys CLI) ask first.
 */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(path.join(dataDir, 'pglite', 'PG_VERSION')) || existsSync(path.join(dataDir, LOCK_FILE));
}

/**
 * Opens the embedded database in `dataDir`. Exactly one process owns the directory (a lock
 * file records it); it hosts PGlite in a worker thread behind pglite-socket. Any other
 * process that starts on the same directory attaches to the owner's socket instead of
 * opening the files twice. `dataDir: null` gives a throwaway in-memory database.
 */
export async function openEmbeddedDatabase(dataDir: string | null): Promise<EmbeddedDatabase> {
  if (dataDir === null) return startHost({ dataDir: 'memory://', socketPath: null, maxConnections: 200 }, null);
  await fs.mkdir(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const deadline = Date.now() + ATTACH_TIMEOUT_MS;
  let refusedSince: number | null = null;
  for (;;) {
    const mine: LockContent = { pid: process.pid, hostname: os.hostname(), state: 'starting' };
    try {
      await fs.writeFile(lockPath, JSON.stringify(mine), { flag: 'wx', mode: 0o600 });
      return await becomeOwner(dataDir, lockPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const lock = await readLock(lockPath);
    if (lock && lock.hostname !== os.hostname()) {
      throw new Error(
        `${lockPath} is held by process ${lock.pid} on ${lock.hostname}; the embedded database can only be shared by processes on one machine. Set DATABASE_URL to share a Postgres server instead.`,
      );
    }
    if (lock && !pidAlive(lock.pid)) {
      log(`embedded database: removing stale lock of exited process ${lock.pid}`);
      await removeLock(lockPath);
      continue;
    }
    if (lock?.state === 'ready') {
      const target = targetOf(lock);
      if (await canConnect(target)) return { target, owner: false, close: async () => undefined };
      refusedSince ??= Date.now();
      if (Date.now() - refusedSince > 3000) {
        log(`embedded database: owner ${lock.pid} does not answer on its socket; taking over`);
        await removeLock(lockPath);
        continue;
      }
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for the embedded database owner (${lockPath})`);
    await sleep(100);
  }
}

async function becomeOwner(dataDir: string, lockPath: string): Promise<EmbeddedDatabase> {
  const runDir = path.join(dataDir, 'run');
  await fs.mkdir(runDir, { recursive: true, mode: 0o700 });
  const socketPath = path.join(runDir, `.s.PGSQL.${SOCKET_PORT}`);
  const useSocket = Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH;
  if (useSocket) await fs.rm(socketPath, { force: true });
  try {
    const pgDir = path.join(dataDir, 'pglite');
    if (!existsSync(path.join(pgDir, 'PG_VERSION'))) await initialize(pgDir);
    const db = await startHost(
      { dataDir: pgDir, socketPath: useSocket ? socketPath : null, maxConnections: 200 },
      lockPath,
    );
    const ready: LockContent = {
      pid: process.pid,
      hostname: os.hostname(),
      state: 'ready',
      socketDir: useSocket ? runDir : null,
      port: db.target.port,
    };
    const tmp = `${lockPath}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(ready), { mode: 0o600 });
    await fs.rename(tmp, lockPath);
    return db;
  } catch (err) {
    await removeLock(lockPath);
    throw err;
  }
}

/**
 * Creates the database in a thread of its own that then exits: initdb grows PGlite's memory by
 * hundreds of megabytes that WebAssembly never gives back, so the long-lived host starts clean.
 */
async function initialize(pgDir: string): Promise<void> {
  const worker = new Worker(HOST, {
    workerData: { dataDir: pgDir, socketPath: null, maxConnections: 1, initOnly: true } satisfies HostOptions,
  });
  try {
    const done = await nextMessage(worker);
    if (done.type === 'error') throw new Error(`creating the embedded database failed: ${done.message}`);
  } finally {
    await worker.terminate();
  }
}

async function startHost(options: HostOptions, lockPath: string | null): Promise<EmbeddedDatabase> {
  const worker = new Worker(HOST, { workerData: options satisfies HostOptions });
  const ready = await nextMessage(worker);
  if (ready.type !== 'ready') {
    await worker.terminate();
    throw new Error(`embedded database failed to start: ${ready.type === 'error' ? ready.message : ready.type}`);
  }
  const target: PgTarget = ready.socketPath
    ? { host: path.dirname(ready.socketPath), port: SOCKET_PORT, user: 'postgres', database: 'postgres' }
    : { host: '127.0.0.1', port: ready.port!, user: 'postgres', database: 'postgres' };
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      const closed = nextMessage(worker).catch(() => undefined);
      worker.postMessage({ type: 'close' });
      await Promise.race([closed, sleep(10_000)]);
      await worker.terminate();
      if (lockPath) await removeLock(lockPath);
    })());
  return { target, owner: true, close };
}

function nextMessage(worker: Worker): Promise<HostMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (msg: HostMessage) => {
      worker.off('error', onError);
      worker.off('exit', onExit);
      resolve(msg);
    };
    const onError = (err: Error) => {
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      reject(err);
    };
    const onExit = (code: number) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      reject(new Error(`embedded database host exited with code ${code}`));
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
}

function targetOf(lock: LockContent): PgTarget {
  return lock.socketDir
    ? { host: lock.socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' }
    : { host: '127.0.0.1', port: lock.port!, user: 'postgres', database: 'postgres' };
}

async function readLock(lockPath: string): Promise<LockContent | null> {
  try {
    return JSON.parse(await fs.readFile(lockPath, 'utf8')) as LockContent;
  } catch {
    return null; // being written or just removed: the caller polls again
  }
}

async function removeLock(lockPath: string): Promise<void> {
  // Rename first so two processes clearing the same stale lock cannot delete a fresh one.
  const doomed = `${lockPath}.${process.pid}.${Date.now()}.stale`;
  try {
    await fs.rename(lockPath, doomed);
    await fs.rm(doomed, { force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function canConnect(target: PgTarget): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = target.host.startsWith('/')
      ? net.connect(path.join(target.host, `.s.PGSQL.${target.port}`))
      : net.connect(target.port, target.host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
