import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { expect, it } from 'vitest';

// Broke: `npm install` printed 25 EBADENGINE lines on Node 20, a version package.json said it
// supports (graphql-yoga's @graphql-tools/* pulled @whatwg-node/promise-helpers 2 and
// disposablestack 0.1, which declare Node >= 22.15 and differ from 1.3.2 / 0.0.6 only by that and
// a removed deprecated function), and npm 11 added an advisory about esbuild's install script.
// Every package npm installs must accept the lowest version of every Node line `engines` names,
// and every install script must be approved.

const ROOT = path.resolve(import.meta.dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<
    string,
    { version?: string; optional?: boolean; engines?: { node?: string }; hasInstallScript?: boolean }
  >;
};

/** The first version of each Node line the project supports: "^20.19.0 || ^22.13.0 || >=24" → 20.19.0, 22.13.0, 24.0.0. */
const lowest = manifest.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version);

it('names Node 24 and the older lines it still installs quietly on', () => {
  expect(lowest).toEqual(['20.19.0', '22.13.0', '24.0.0']);
});

it('installs only packages whose engines accept every supported Node line', () => {
  const refused: string[] = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    const range = entry.engines?.node;
    // npm skips an optional package whose engines do not match, without a warning (mdream's addons).
    if (!key || entry.optional || !range) continue;
    for (const version of lowest)
      if (!semver.satisfies(version, range)) refused.push(`${key}@${entry.version} wants ${range}, not ${version}`);
  }
  expect(refused).toEqual([]);
});

it('approves the install script of every package that has one', () => {
  const withScripts = Object.entries(lock.packages)
    .filter(([key, entry]) => key && entry.hasInstallScript && !entry.optional)
    .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
  expect(withScripts.length).toBeGreaterThan(0);
  for (const name of withScripts) expect(manifest.allowScripts?.[name], name).toBe(true);
});
