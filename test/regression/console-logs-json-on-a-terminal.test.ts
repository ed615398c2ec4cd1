import { spawn } from 'node:child_process';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { tempDir } from '../support/config.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { spawnService } from '../support/spawn-service.js';

// Broke: `npm start` in a terminal printed only JSON objects, unreadable for a person starting
// the service. On a terminal the lines are now readable (pino-pretty); piped to a file or a log
// collector, or with LOG_FORMAT=json, they stay one JSON object a line.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READABLE = /^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN|ERROR): /;
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
}, 60_000);
afterAll(async () => {
  await db?.drop();
});

it('decides the format from LOG_FORMAT and, for auto, from whether stdout is a terminal', () => {
  expect(loadConfig({}, true).log).toEqual({ format: 'pretty', color: true });
  expect(loadConfig({}, false).log).toEqual({ format: 'json', color: false });
  expect(loadConfig({ LOG_FORMAT: 'json' }, true).log.format).toBe('json');
  expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).log).toEqual({ format: 'pretty', color: false });
  expect(() => loadConfig({ LOG_FORMAT: 'yaml' }, false)).toThrow(/LOG_FORMAT="yaml"/);
});

it('writes one readable line a record, redacted like the JSON', () => {
  let out = '';
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  const logger = createLogger({ logLevel: 'info', log: { format: 'pretty', color: false } }, { role: 'all' }, sink);
  logger.info({ port: 8080, authorization: 'Bearer gln_secret' }, 'listening');
  const lines = out.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(READABLE);
  expect(lines[0]).toContain('INFO: listening {"role":"all","port":8080,"authorization":"[redacted]"}');
});

/** The service under a pseudo-terminal (util-linux `script`), as a person starting it sees it. */
async function onTerminal(env: Record<string, string>): Promise<string> {
  const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'src/runtime/start.mjs'))}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: tempDir('gleaner-tty-'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TERM: 'xterm',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      DATA_DIR: tempDir('gleaner-tty-data-'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await expect.poll(() => plain(out), { timeout: 180_000, interval: 200 }).toMatch(/"msg":"listening"|: listening/);
  } finally {
    // Closing the terminal hangs up the service (SIGHUP), as closing a terminal window does.
    child.kill('SIGKILL');
    await exited;
  }
  // A terminal ends lines with \r\n; stdout and stderr share it.
  return out.replace(/\r/g, '');
}

it('prints readable lines on a terminal and JSON with LOG_FORMAT=json', { timeout: 400_000 }, async () => {
  const raw = await onTerminal({});
  expect(raw).toContain('\x1b['); // a terminal gets colours
  const pretty = plain(raw).split('\n');
  expect(pretty.find((l) => l.includes('INFO: listening'))).toMatch(READABLE);
  expect(pretty.filter((l) => l.startsWith('{'))).toEqual([]);
  const json = (await onTerminal({ LOG_FORMAT: 'json' })).split('\n').filter((l) => l.startsWith('{'));
  expect(json.map((l) => (JSON.parse(l) as { msg: string }).msg)).toContain('listening');
});

it('prints JSON when stdout is not a terminal', { timeout: 200_000 }, async () => {
  const service = await spawnService({ DATABASE_URL: db.url, DATA_DIR: tempDir('gleaner-pipe-') });
  try {
    const lines = service.stdout().split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
  } finally {
    await service.stop('SIGKILL');
  }
});
