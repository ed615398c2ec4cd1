import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { spawnService, type SpawnedService } from '../support/spawn-service.js';

// Broke: the start log said nothing about the browser engine when Chromium was there, and only
// an "engines not available" line (from every thread) when it was not, so a new user could not
// tell whether screenshots and JavaScript pages would work. One line at start now says which.
let db: TestDatabase;
const services: SpawnedService[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await Promise.all(services.map((s) => s.stop('SIGKILL')));
  await db?.drop();
});

async function start(
  env: Record<string, string> = {},
): Promise<{ logs: { msg: string; [k: string]: unknown }[]; stderr: () => string }> {
  const service = await spawnService({ DATABASE_URL: db.url, DATA_DIR: tempDir('gleaner-start-log-'), ...env });
  services.push(service);
  const logs = service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string });
  return { logs, stderr: () => service.stderr() };
}

it('says the browser engine is available when Chromium is installed', { timeout: 200_000 }, async () => {
  const { logs, stderr } = await start();
  const line = logs.find((l) => l.msg.startsWith('browser engine'));
  expect(line).toMatchObject({ msg: 'browser engine available (playwright)', browser: 'playwright' });
  expect(line!.engines).toEqual(expect.arrayContaining(['http', 'playwright']));
  await expect.poll(stderr).toContain('Browser engine: available'); // the hints follow the start
});

it('says it is not, why and how to enable it, when it cannot run', { timeout: 200_000 }, async () => {
  const { logs, stderr } = await start({ BROWSER_ENABLED: 'false' });
  const lines = logs.filter((l) => l.msg.startsWith('browser engine'));
  expect(lines).toHaveLength(1);
  expect(lines[0]!.msg).toMatch(/^browser engine not available: .*BROWSER_ENABLED=false.*set BROWSER_ENABLED=true/);
  await expect.poll(stderr).toMatch(/Browser engine: not available \(.*BROWSER_ENABLED/);
});
