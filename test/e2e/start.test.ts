import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/config.js';
import { runScript, spawnService, type SpawnedService } from '../support/spawn-service.js';

// The two-command start on embedded defaults: no DATABASE_URL, no S3, just a data directory.
describe('npm start on embedded defaults', () => {
  const dataDir = tempDir('gleaner-start-');
  let service: SpawnedService;
  afterAll(async () => {
    await service?.stop('SIGKILL');
  });

  it(
    'creates a key on first start, prints it, saves it 0600, and the key authenticates',
    { timeout: 180_000 },
    async () => {
      service = await spawnService({ DATA_DIR: dataDir });
      const keyFile = path.join(dataDir, 'api-key');
      const key = readFileSync(keyFile, 'utf8').trim();
      expect(key).toMatch(/^gln_/);
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      await expect.poll(() => service.stderr()).toContain(key);
      const me = await fetch(`${service.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } });
      expect(me.status).toBe(200);
      expect(await fetch(`${service.url}/readyz`).then((r) => r.json())).toEqual({
        status: 'ready',
        database: 'embedded',
      });
    },
  );

  it('lets another process use the database through the owner (npm run keys)', { timeout: 120_000 }, async () => {
    const created = await runScript('src/cli/keys.ts', ['create', '--name', 'from-cli'], { DATA_DIR: dataDir });
    expect(created.code, created.stderr).toBe(0);
    const secret = created.stdout.trim();
    expect((await fetch(`${service.url}/v1/me`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);
    const listed = await runScript('src/cli/keys.ts', ['list'], { DATA_DIR: dataDir });
    expect(listed.stdout).toContain('from-cli');
    const id = listed.stdout
      .split('\n')
      .find((l) => l.includes('from-cli'))!
      .split('\t')[0]!;
    expect((await runScript('src/cli/keys.ts', ['revoke', id], { DATA_DIR: dataDir })).code).toBe(0);
    await expect
      .poll(
        async () => (await fetch(`${service.url}/v1/me`, { headers: { authorization: `Bearer ${secret}` } })).status,
        { timeout: 10_000 },
      )
      .toBe(401);
  });

  it(
    'shuts down gracefully on SIGTERM and starts again on the same data without a new key',
    { timeout: 180_000 },
    async () => {
      expect(await service.stop('SIGTERM')).toBe(0);
      const key = readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      service = await spawnService({ DATA_DIR: dataDir });
      expect(service.stderr()).not.toContain('Created the default team');
      expect((await fetch(`${service.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    },
  );

  it('refuses to boot on a bad setting, naming it', { timeout: 60_000 }, async () => {
    await expect(spawnService({ DATA_DIR: tempDir('gleaner-bad-'), PORT: 'eighty' })).rejects.toThrow(/PORT="eighty"/);
  });
});
