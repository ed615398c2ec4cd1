import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { expect, it } from 'vitest';

// Broke: there was no .dockerignore, so `docker build` sent node_modules/ and data/ (the
// embedded database, stored objects and the API key) to the daemon as the build context.
// Docker cannot run here: this applies the file's rules as Docker does (a path is excluded by
// the last pattern matching it or one of its parent folders; `!` lets it back in).
const ROOT = path.resolve(import.meta.dirname, '../..');

function dockerignore(): (file: string) => boolean {
  const rules = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const negated = line.startsWith('!');
      const pattern = path.posix.normalize(line.slice(negated ? 1 : 0)).replace(/^\/+/, '');
      return { negated, matches: picomatch(pattern, { dot: true }) };
    });
  return (file) => {
    const parts = file.split('/');
    const selfAndParents = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (selfAndParents.some((p) => rule.matches(p))) excluded = !rule.negated;
    return excluded;
  };
}

/** What the Dockerfile copies from the context. */
function copySources(): string[] {
  return readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter((line) => /^COPY\s/.test(line) && !/--from=/.test(line))
    .flatMap((line) => line.trim().split(/\s+/).slice(1, -1))
    .map((source) => source.replace(/^\.\//, '').replace(/\/$/, ''));
}

it('keeps node_modules, data, secrets and everything the image does not copy out of the build context', () => {
  const excluded = dockerignore();
  for (const file of [
    'node_modules/hono/package.json',
    'data/api-key',
    'data/pglite/PG_VERSION',
    'data/objects/x',
    '.env',
    '.git/HEAD',
    '.build/abc/src/main.js',
    'test/e2e/start.test.ts',
    'bench/site/index.html',
  ]) {
    expect(excluded(file), file).toBe(true);
  }
});

it('sends every file the Dockerfile copies, and nothing else', () => {
  const excluded = dockerignore();
  const sources = copySources();
  expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'src']));
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean);
  const copied = (file: string) => sources.some((s) => file === s || file.startsWith(`${s}/`));
  expect(tracked.filter((f) => copied(f) && excluded(f))).toEqual([]);
  expect(tracked.filter((f) => !copied(f) && !excluded(f))).toEqual([]);
});
