// `npm start`: compiles the service's TypeScript to plain JavaScript with esbuild and runs that.
//
// Why not `node --import tsx` at run time: tsx (its loader thread, transform caches and source
// maps) costs every thread that registers it resident memory, measured at ~70 MB for the main
// thread with the service's module graph (217 → 148 MB) and ~25 MB for each worker thread (the
// converter, job threads). esbuild is what tsx transforms with, so the output is the same code;
// it takes well under a second and is reused while the sources are unchanged.
//
// The output goes to `.build/<fingerprint>/`, a mirror of the repository's source folders plus
// package.json (relative paths such as `../package.json` keep working). It is written to a
// temporary folder and renamed into place, so processes started together (tests, a worker next
// to an API) never see half a build. `--build-only` builds and exits (Docker images build at
// image build time, then run as a user that cannot write the app folder).
//
// Plain JavaScript on purpose: it runs before anything can compile TypeScript.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_DIRS = ['src', 'engines', 'plugins', 'schema'];
const OUT_ROOT = path.join(ROOT, '.build');
/** Builds kept besides the current one (others running an older build keep their files). */
const KEEP_OLD_BUILDS = 3;

function listSources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|mjs)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) files.push(full);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(ROOT, dir));
  return files.sort();
}

function fingerprint(files, esbuildVersion) {
  const hash = createHash('sha256').update(`esbuild ${esbuildVersion}\n`);
  for (const file of [
    ...files,
    path.join(ROOT, 'package.json'),
    path.join(ROOT, 'tsconfig.json'),
    fileURLToPath(import.meta.url),
  ]) {
    const stat = fs.statSync(file);
    hash.update(`${path.relative(ROOT, file)} ${stat.size} ${stat.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** A build is complete once its package.json is there (copied last). */
const isComplete = (dir) => fs.existsSync(path.join(dir, 'package.json'));

/** Returns the folder holding a complete build of the current sources, building it if needed. */
export async function ensureBuild() {
  const esbuild = await import('esbuild');
  const files = listSources();
  const dir = path.join(OUT_ROOT, fingerprint(files, esbuild.version));
  if (isComplete(dir)) return dir;
  fs.mkdirSync(OUT_ROOT, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(OUT_ROOT, 'tmp-'));
  try {
    await esbuild.build({
      entryPoints: files.filter((f) => f.endsWith('.ts')),
      outdir: tmp,
      outbase: ROOT,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      bundle: false,
      sourcemap: 'linked',
      logLevel: 'warning',
      tsconfig: path.join(ROOT, 'tsconfig.json'),
    });
    for (const file of files.filter((f) => f.endsWith('.mjs'))) {
      const to = path.join(tmp, path.relative(ROOT, file));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(file, to);
    }
    // Last: its presence marks the build complete (and ../package.json reads resolve to it).
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(tmp, 'package.json'));
    try {
      fs.renameSync(tmp, dir);
    } catch (err) {
      // Another process finished the same build first: use theirs.
      if (!isComplete(dir)) throw err;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  pruneOldBuilds(dir);
  return dir;
}

function pruneOldBuilds(current) {
  const builds = fs
    .readdirSync(OUT_ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && path.join(OUT_ROOT, e.name) !== current)
    .map((e) => {
      const full = path.join(OUT_ROOT, e.name);
      return { full, mtime: fs.statSync(full).mtimeMs, tmp: e.name.startsWith('tmp-') };
    })
    .sort((a, b) => b.mtime - a.mtime);
  const hour = 3_600_000;
  // Temporary folders of builds that died; finished builds beyond the newest few.
  const stale = [
    ...builds.filter((b) => b.tmp && Date.now() - b.mtime > hour),
    ...builds.filter((b) => !b.tmp).slice(KEEP_OLD_BUILDS),
  ];
  for (const b of stale) fs.rmSync(b.full, { recursive: true, force: true });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let dir;
  try {
    dir = await ensureBuild();
  } catch (err) {
    process.stderr.write(`building the service failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  if (process.argv.includes('--build-only')) {
    process.stdout.write(`built ${path.relative(ROOT, dir)}\n`);
  } else {
    await import(pathToFileURL(path.join(dir, 'src', 'main.js')).href);
  }
}
