import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumArgs } from '../../engines/playwright/browser-launch.js';
import { locateChromium } from '../../engines/playwright/chromium-path.js';

/** A Chromium started as a remote browser is: its own process, reached over the DevTools protocol. */
export interface RemoteChromium {
  /** `http://127.0.0.1:PORT` (the /json/version endpoint names the browser's WebSocket). */
  readonly url: string;
  readonly port: number;
  /** Kills the browser and everything it started (the remote going away), and removes its profile. */
  kill(): Promise<void>;
}

/**
 * Starts Debian's Chromium headless with `--remote-debugging-port=0` on 127.0.0.1 (the port is
 * read from the DevToolsActivePort file it writes), with the flags an operator gives a remote
 * scraping browser (those of the local engine: no QUIC, no WebRTC UDP outside the proxy).
 *
 * @example
 * const chrome = await startRemoteChromium();
 * const engine = createCdpEngine({ guard, url: chrome.url, ... });
 * await chrome.kill();
 */
export async function startRemoteChromium(): Promise<RemoteChromium> {
  const found = locateChromium(null);
  if (found.path === null) throw new Error(found.reason);
  const profile = mkdtempSync(path.join(os.tmpdir(), 'gleaner-remote-chromium-'));
  const child = spawn(
    found.path,
    [
      '--headless',
      '--remote-debugging-port=0',
      '--remote-debugging-address=127.0.0.1',
      `--user-data-dir=${profile}`,
      ...chromiumArgs(256),
      'about:blank',
    ],
    // Its own process group, so kill() takes its renderers and helpers with it.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  // Should the test process end without kill() (a timeout), the browser must not outlive it.
  const onExit = () => killGroup(child);
  process.once('exit', onExit);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const portFile = path.join(profile, 'DevToolsActivePort');
  const until = Date.now() + 60_000;
  while (!existsSync(portFile) || readFileSync(portFile, 'utf8').split('\n').length < 2) {
    if (exited(child) || Date.now() > until) {
      killGroup(child);
      throw new Error(`the remote Chromium did not start (exit ${child.exitCode}): ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async kill() {
      const gone = exited(child) ? Promise.resolve() : new Promise((resolve) => child.once('exit', resolve));
      process.off('exit', onExit);
      killGroup(child);
      await gone;
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Ended by itself or by a signal (then `exitCode` stays null). */
const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
