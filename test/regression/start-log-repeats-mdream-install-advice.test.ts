import { afterAll, beforeAll, expect, it } from 'vitest';
import { whyNoNativeAddon } from '../../src/pipeline/markdown/mdream-binding.js';
import { tempDir } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { spawnService } from '../support/spawn-service.js';

// Broke: on Node 20 the start log passed on mdream's own loader message ("npm has a bug related
// to optional dependencies … try `npm i` again after removing both package-lock.json and
// node_modules"), wrong advice where npm skips the addon on purpose, and did not say plainly
// which converter ran. One line now names the build and why, in this project's words.

/** What mdream's napi-rs loader throws when no addon loads: generic advice over a chain of causes. */
function loaderError(...causes: string[]): Error {
  const cause = causes.reduce<Error | undefined>((previous, text) => {
    const error = new Error(text);
    error.cause = previous;
    return error;
  }, undefined);
  const error = new Error(
    'Cannot find native binding. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). ' +
      'Please try `npm i` again after removing both package-lock.json and node_modules directory.',
  );
  error.cause = cause;
  return error;
}

it('says the addon is not installed, and why, instead of mdream advice', () => {
  const err = loaderError(
    "Cannot find module './rust.linux-x64-gnu.node'",
    "Cannot find module '@mdream/rust-linux-x64-gnu'",
  );
  const onNode20 = whyNoNativeAddon(err, [], '20.19.0');
  expect(onNode20).toBe(
    "mdream's native addon is not installed: npm installs it only on Node 22 or newer, this is Node 20.19.0",
  );
  const onNode24 = whyNoNativeAddon(err, [], '24.21.0');
  expect(onNode24).toMatch(/is not installed: run npm ci again on this Node \(24\.21\.0\)/);
  const installed = whyNoNativeAddon(
    loaderError(
      "Cannot find module './rust.linux-x64-gnu.node'",
      "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.39' not found",
    ),
    ['rust-linux-x64-gnu'],
    '22.12.0',
  );
  expect(installed).toBe(
    "mdream's native addon (@mdream/rust-linux-x64-gnu) is installed but did not load: " +
      "/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.39' not found",
  );
  for (const text of [onNode20, onNode24, installed]) expect(text).not.toMatch(/package-lock|npm i\b/);
});

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await db?.drop();
});

it(
  'names the converter once in the start log, and the native addon on Node 22 or newer',
  { timeout: 200_000 },
  async () => {
    const service = await spawnService({ DATABASE_URL: db.url, DATA_DIR: tempDir('gleaner-converter-log-') });
    try {
      const lines = service
        .stdout()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; converter?: string; reason?: string });
      const converter = lines.filter((l) => l.msg.startsWith('markdown converter'));
      expect(converter).toHaveLength(1);
      if (Number(process.versions.node.split('.')[0]) >= 22)
        expect(converter[0]).toMatchObject({ converter: 'mdream', msg: "markdown converter: mdream's native addon" });
      else
        expect(converter[0]!.msg).toMatch(/^markdown converter: mdream's (native addon|WebAssembly build .*, as .+)$/);
      expect(service.stdout() + service.stderr()).not.toMatch(/package-lock/);
    } finally {
      await service.stop('SIGKILL');
    }
  },
);
