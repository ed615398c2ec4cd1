import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { isBrowserFile } from './browser-files.js';

/**
 * A setup file (vitest.config.ts): a file that starts Chromium holds the one browser slot of the
 * machine while it runs (a directory made atomically; a holder that died is noticed by its pid),
 * and its tests get the time several browser pages need on a loaded machine.
 */
const SLOT = path.join(
  os.tmpdir(),
  `gleaner-test-browser-slot-${Buffer.from(process.cwd()).toString('hex').slice(-24)}`,
);
const WAIT_MS = 15 * 60_000;

const testPath = expect.getState().testPath ?? '';
if (isBrowserFile(testPath)) {
  vi.setConfig({ testTimeout: 120_000 });
  beforeAll(acquire, WAIT_MS + 10_000);
  afterAll(release);
}

async function acquire(): Promise<void> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      mkdirSync(SLOT);
      writeFileSync(path.join(SLOT, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (!holderAlive()) rmSync(SLOT, { recursive: true, force: true });
    else if (Date.now() > until) throw new Error(`the browser slot ${SLOT} stayed taken for ${WAIT_MS} ms`);
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function release(): void {
  if (readPid() === process.pid) rmSync(SLOT, { recursive: true, force: true });
}

function readPid(): number | null {
  try {
    return Number(readFileSync(path.join(SLOT, 'pid'), 'utf8')) || null;
  } catch {
    return null;
  }
}

/** False when the slot's holder is gone (a killed run); a slot just made, pid not yet written, counts as held. */
function holderAlive(): boolean {
  const pid = readPid();
  if (pid === null) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
