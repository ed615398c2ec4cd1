import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';

/** Where Debian, Ubuntu, snaps and Google put Chromium; searched in this order (elsewhere: CHROMIUM_PATH). */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/usr/local/bin/chromium',
  '/snap/bin/chromium',
];

export type ChromiumLocation = { path: string; reason?: undefined } | { path: null; reason: string };

/**
 * Finds the Chromium executable: CHROMIUM_PATH when set (it must exist: a typo must not silently
 * disable the browser), else the first known location found. Never downloads a browser.
 *
 * @example
 * const found = locateChromium(config.browser.chromiumPath);
 * if (found.path === null) console.warn(found.reason);
 */
export function locateChromium(
  configured: string | null,
  candidates: readonly string[] = CHROMIUM_CANDIDATES,
): ChromiumLocation {
  if (configured !== null) {
    if (isExecutableFile(configured)) return { path: configured };
    throw new Error(`CHROMIUM_PATH=${configured} is not an executable file`);
  }
  const found = candidates.find(isExecutableFile);
  if (found) return { path: found };
  return {
    path: null,
    reason:
      'Chromium was not found (looked for /usr/bin/chromium, chromium-browser, google-chrome); install it ' +
      '(`apt-get install chromium`) or set CHROMIUM_PATH, then restart the service',
  };
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * The browser's major version from `chromium --version` ("Chromium 156.0.8078.79 built on
 * Debian…"), for a user agent that matches the engine actually rendering. Null when unknown.
 */
export function readChromiumMajorVersion(executable: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile(executable, ['--version'], { timeout: 15_000 }, (err, stdout) => {
      const match = /(\d+)\.\d+\.\d+\.\d+/.exec(String(stdout));
      resolve(err || !match ? null : Number(match[1]));
    });
  });
}
