import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { ConfigError, loadEnvFile } from '../../src/config.js';
import { tempDir } from '../support/config.js';
import { runScript, spawnService, type SpawnedService } from '../support/spawn-service.js';

// Broke: `.env.example` said "copy to .env", but `npm start` never read `.env`: a newcomer's
// settings there were silently ignored. The service and the keys CLI now load the working
// directory's `.env` (Node's own parser), and a variable set in the environment wins.

const NAMES = ['GLEANER_DOTENV_FROM_FILE', 'GLEANER_DOTENV_SET', 'GLEANER_DOTENV_EMPTY'];
afterEach(() => {
  for (const name of NAMES) delete process.env[name];
});

it('loads what the environment lacks and leaves what it has, even an empty value', () => {
  const dir = tempDir('gleaner-dotenv-');
  const file = path.join(dir, '.env');
  writeFileSync(
    file,
    '# a comment\nGLEANER_DOTENV_FROM_FILE="from the file"\nGLEANER_DOTENV_SET=file\nGLEANER_DOTENV_EMPTY=file\n',
  );
  process.env.GLEANER_DOTENV_SET = 'environment';
  process.env.GLEANER_DOTENV_EMPTY = '';
  expect(loadEnvFile(file)).toBe(file);
  expect(process.env.GLEANER_DOTENV_FROM_FILE).toBe('from the file');
  expect(process.env.GLEANER_DOTENV_SET).toBe('environment');
  expect(process.env.GLEANER_DOTENV_EMPTY).toBe('');
});

it('is quiet without a file and names a file it cannot read', () => {
  const dir = tempDir('gleaner-dotenv-');
  expect(loadEnvFile(path.join(dir, '.env'))).toBeNull();
  mkdirSync(path.join(dir, 'folder.env'));
  expect(() => loadEnvFile(path.join(dir, 'folder.env'))).toThrow(ConfigError);
  expect(() => loadEnvFile(path.join(dir, 'folder.env'))).toThrow(/folder\.env: could not be read/);
});

let service: SpawnedService | undefined;
afterAll(async () => {
  await service?.stop('SIGKILL');
});

it('npm start and npm run keys read .env from their folder; the environment wins', { timeout: 240_000 }, async () => {
  const cwd = tempDir('gleaner-dotenv-start-');
  // DATA_DIR only in the file; PORT in both (the file's value would not even parse).
  writeFileSync(path.join(cwd, '.env'), 'DATA_DIR=./data-from-dotenv\nPORT=eighty\n');
  service = await spawnService({}, [], 180_000, 'listening', cwd);
  const keyFile = path.join(cwd, 'data-from-dotenv', 'api-key');
  expect(existsSync(keyFile)).toBe(true);
  const key = readFileSync(keyFile, 'utf8').trim();
  expect((await fetch(`${service.url}/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  const logged = service
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; file?: string });
  expect(logged.filter((l) => l.msg.startsWith('settings read from .env'))).toEqual([
    expect.objectContaining({ file: path.join(cwd, '.env') }),
  ]);
  // The keys CLI in the same folder finds the same database through the file.
  const listed = await runScript('src/cli/keys.ts', ['list'], { PORT: '0' }, cwd);
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain(key.slice(0, 8));
});
