import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../support/config.js';
import { runScript } from '../support/spawn-service.js';

// Broke: `npm run keys -- list` with a DATA_DIR that held no database (a typo, or run from
// another folder than the service) silently created a new, empty one and listed nothing.
// It now refuses, naming DATA_DIR; creating a database there takes --init.

it(
  'refuses to work on a DATA_DIR without a database, naming it, and creates nothing',
  { timeout: 120_000 },
  async () => {
    const empty = tempDir('gleaner-keys-empty-');
    const missing = path.join(tempDir('gleaner-keys-parent-'), 'data');
    const cases = [
      [empty, ['list']],
      [missing, ['list']],
      [empty, ['create', '--name', 'ci']],
      [empty, ['revoke', 'key_x']],
    ] as const;
    const runs = await Promise.all(
      cases.map(([dataDir, args]) => runScript('src/cli/keys.ts', [...args], { DATA_DIR: dataDir })),
    );
    runs.forEach((run, i) => {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(`DATA_DIR=${cases[i]![0]}`);
      expect(run.stderr).toContain('--init');
      expect(run.stdout).toBe('');
    });
    expect(readdirSync(empty)).toEqual([]);
    expect(existsSync(missing)).toBe(false);
  },
);

it('creates the database with --init, and then works without it', { timeout: 180_000 }, async () => {
  const dataDir = tempDir('gleaner-keys-init-');
  const created = await runScript('src/cli/keys.ts', ['create', '--init', '--name', 'first'], { DATA_DIR: dataDir });
  expect(created.code, created.stderr).toBe(0);
  expect(created.stdout.trim()).toMatch(/^gln_/);
  const listed = await runScript('src/cli/keys.ts', ['list'], { DATA_DIR: dataDir });
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toMatch(/\tfirst\tactive\n$/);
});
