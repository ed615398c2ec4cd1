import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

// Broke: package.json said Apache-2.0 but the repository had no LICENSE file, and there was no
// guide for a contributor (how to run and test, add an engine, a parser or a module, how commits
// are written).

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

it('ships the full text of the license package.json names', () => {
  expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('Apache-2.0');
  const license = read('LICENSE');
  expect(license).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
  expect(license).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
  expect(license).toContain('9. Accepting Warranty or Additional Liability.');
  expect(license).toContain('END OF TERMS AND CONDITIONS');
});

it('has a contributing guide that covers running, testing, extending and committing', () => {
  const guide = read('CONTRIBUTING.md');
  for (const heading of [
    '## Run it',
    '## Test it',
    '## Add an engine',
    '## Add a parser',
    '## Add a module',
    '## Commits',
  ])
    expect(guide).toContain(heading);
  for (const command of ['npm start', 'npm run lint', 'npm test', 'npx vitest run', 'bash .ci/run'])
    expect(guide).toContain(command);
  const local = [...guide.matchAll(/\]\(([^)\s#]+)[^)]*\)/g)].map((m) => m[1]!).filter((t) => !/^https?:/.test(t));
  expect(local.length).toBeGreaterThan(3);
  for (const target of local) expect(existsSync(path.join(ROOT, target)), target).toBe(true);
  // Every file the guide names in backticks exists.
  for (const [, file] of guide.matchAll(/`((?:src|test|engines|plugins|docs)\/[\w./-]+\.(?:ts|md))`/g))
    expect(existsSync(path.join(ROOT, file!)), file).toBe(true);
});
