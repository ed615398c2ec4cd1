import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START = path.join(ROOT, 'src/runtime/start.mjs');
const TSX = pathToFileURL(createRequire(path.join(ROOT, 'package.json')).resolve('tsx')).href;

/**
 * An empty working directory: the service and the CLI read `.env` from theirs, and a developer's
 * `.env` in the checkout must not reach the processes tests start.
 */
const emptyDir = () => mkdtempSync(path.join(os.tmpdir(), 'gleaner-cwd-'));

export interface SpawnedService {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Runs `node src/runtime/start.mjs` (what `npm start` runs: the compiled build) with the given environment and
 * waits for its ready log line: `listening` (API), or `workers ready` for `--role worker`. It runs in `cwd`
 * (default: a new empty folder, so no `.env` is read).
 */
export async function spawnService(
  env: Record<string, string>,
  args: string[] = [],
  timeoutMs = 120_000,
  readyMessage = 'listening',
  cwd = emptyDir(),
): Promise<SpawnedService> {
  const child = spawn(process.execPath, [START, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not start in ${timeoutMs} ms:\n${out}\n${err}`)),
      timeoutMs,
    );
    const check = () => {
      for (const line of out.split('\n')) {
        if (!line.includes(`"msg":"${readyMessage}"`)) continue;
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve((JSON.parse(line) as { port?: number }).port ?? 0);
        return;
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${out}\n${err}`));
    });
  });
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Runs a one-shot command of the project (e.g. the keys CLI; `script` relative to the checkout) in
 * `cwd` (default: a new empty folder) and returns its output.
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd = emptyDir(),
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, path.join(ROOT, script), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
