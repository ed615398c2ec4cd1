import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { tempDir } from '../support/config.js';

// Broke: .ci/run's closing line counted failed tests only ("N passed, M failed"): a test file that
// failed to load (a syntax error, an import that throws) while another test failed added nothing,
// and skipped tests were not shown. .ci/summary.mjs now counts such a file as one failure, a
// missing report too, and says how many were skipped. The reports here are Vitest's own.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Vitest's JSON report of a folder of test files (globals, so they need no import). */
async function report(files: Record<string, string>): Promise<string> {
  const dir = tempDir('gleaner-ci-summary-');
  writeFileSync(
    path.join(dir, 'vitest.config.mjs'),
    "export default { test: { globals: true, include: ['*.test.mjs'] } };\n",
  );
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const out = path.join(dir, 'report.json');
  const vitest = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
  await run(process.execPath, [vitest, 'run', '--root', dir, '--reporter=json', `--outputFile=${out}`]).catch(
    () => undefined,
  );
  return out;
}

async function summary(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const result = await run(process.execPath, [path.join(ROOT, '.ci/summary.mjs'), ...args]).then(
    (r) => ({ code: 0, stdout: r.stdout }),
    (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
  );
  return { code: result.code, lines: result.stdout.trimEnd().split('\n') };
}

it('counts a file that failed to load, beside a failed test, and the skipped ones', { timeout: 120_000 }, async () => {
  const out = await report({
    'a.test.mjs': "it('passes', () => {}); it.skip('is skipped', () => {}); it.todo('is to do');",
    'b.test.mjs': "it('fails', () => { throw new Error('no'); }); it('passes', () => {});",
    'c.test.mjs': "throw new Error('this file does not load');\nit('never runs', () => {});",
  });
  const { code, lines } = await summary(out);
  expect(lines.at(-1)).toBe('2 passed, 2 failed, 2 skipped');
  expect(lines.filter((l) => l.startsWith('failed file:'))).toEqual([
    expect.stringMatching(/c\.test\.mjs: .*this file does not load/),
  ]);
  expect(code).toBe(1);
});

it('says 0 failed and exits 0 only when every report passed and no step failed', { timeout: 120_000 }, async () => {
  const out = await report({ 'a.test.mjs': "it('passes', () => {});" });
  expect(await summary(out)).toEqual({ code: 0, lines: ['1 passed, 0 failed, 0 skipped'] });
  expect(await summary('--failed-steps', '1', out)).toMatchObject({
    code: 1,
    lines: ['1 passed, 1 failed, 0 skipped'],
  });
  const missing = await summary(out, path.join(tempDir('gleaner-ci-summary-'), 'never-written.json'));
  expect(missing.code).toBe(1);
  expect(missing.lines.at(-1)).toBe('1 passed, 1 failed, 0 skipped');
});
