/**
 * The stored-pages index built from pieces (src/domain/pages/search-vector.ts) against Postgres's
 * own `to_tsvector('english', text)`, on the embedded database as the service reaches it: every
 * text's assembled vector must equal Postgres's, and what each costs is measured.
 *
 * Texts: the bench site's articles as markdown (the service's pipeline, `formats: [markdown]`, cut
 * to `--chars`), the golden pages' expected markdown and text, and their HTML sources as text
 * (tags, comments, scripts and entities: what the cut into pieces has to get right or leave to
 * Postgres).
 *
 * Memory: what the remembered pieces and lexemes of all those texts hold once every text was
 * assembled, measured as the heap and typed arrays freed when the SearchVectors is dropped (after
 * full collections; needs `--expose-gc`). CPU: per text, this process with PGlite's thread; a
 * figure for a quiet machine only (`--skip-timing` leaves it out of the report).
 *
 *   node --expose-gc --import tsx bench/search-vector-parity.ts [--pages 2000] [--chars 20000] [--skip-timing] [--out NAME]
 *
 * The report (and `bench/results/NAME.md`) names the commit measured.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { builtinTransformers } from '../plugins/transformers/index.js';
import { openEmbeddedDatabase } from '../src/db/embedded/embedded-database.js';
import { createOrm } from '../src/db/orm.js';
import { execLarge } from '../src/db/sql.js';
import { SearchVectors } from '../src/domain/pages/search-vector.js';
import { createContentPipeline } from '../src/pipeline/index.js';
import { DEFAULT_SITE_DIR, RESULTS_DIR } from './lib/paths.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '2000' },
    chars: { type: 'string', default: '20000' },
    out: { type: 'string' },
    'skip-timing': { type: 'boolean', default: false },
  },
});
const gc = (globalThis as { gc?: (options: { type: 'major'; execution: 'async' }) => Promise<void> }).gc;
if (!gc) throw new Error('run with node --expose-gc: the memory figures need full collections');
const chars = Number(values.chars);

const manifest = JSON.parse(fs.readFileSync(path.join(DEFAULT_SITE_DIR, 'manifest.json'), 'utf8')) as {
  articlePaths: string[];
};
const pipeline = createContentPipeline({ transformers: builtinTransformers });
const options = pipeline.prepare({ formats: ['markdown'] });
const site = manifest.articlePaths.slice(0, Number(values.pages)).map((p) => {
  const html = fs.readFileSync(path.join(DEFAULT_SITE_DIR, p), 'utf8');
  return (
    pipeline.process({ text: html, url: `http://127.0.0.1${p}`, contentType: 'text/html' }, options).markdown ?? ''
  );
});
const goldenDir = path.resolve('test/fixtures/pages');
const golden = fs
  .readdirSync(goldenDir)
  .filter((name) => /\.(md|txt|html)$/.test(name))
  .map((name) => fs.readFileSync(path.join(goldenDir, name), 'utf8'));
const texts = [...site, ...golden].map((t) => t.slice(0, chars));

const embedded = await openEmbeddedDatabase(null);
const orm = await createOrm({ connection: embedded.target, poolSize: 2 });
const em = orm.em.fork();
/** How many pieces and lexemes a SearchVectors remembers (its private tables, read for the report). */
function countsOf(vectors: SearchVectors): { pieces: number; lexemes: number } {
  const tables = vectors as unknown as { pieces: { size: number }; lexemes: { size: number } };
  return { pieces: tables.pieces.size, lexemes: tables.lexemes.size };
}

/**
 * The main thread's heap and typed arrays after full collections (PGlite runs in its own thread).
 * Asynchronous collections: a collection called from here would treat what this function's
 * callers hold in their frames as alive (a first version measured 0.1 MiB freed that way).
 */
async function memory(): Promise<{ heap: number; arrays: number }> {
  for (let i = 0; i < 3; i++) await gc!({ type: 'major', execution: 'async' });
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, arrays: usage.arrayBuffers };
}

// Held in an object so that dropping it (for the memory figure) is one assignment.
const holder: { vectors: SearchVectors | null } = {
  vectors: new SearchVectors((sql, params) => execLarge(em, sql, params), { maxPieces: 200_000 }),
};

// Before any text is assembled: what the process holds without the vectors' memory.
const before = await memory();
let equal = 0;
let fallback = 0;
const differ: number[] = [];
let piecesCpu = 0;
let postgresCpu = 0;
for (const [i, text] of texts.entries()) {
  let before = process.cpuUsage();
  const literal = await holder.vectors!.literal(text);
  const built =
    literal === null ? null : await execLarge<{ v: string }>(em, 'select ?::tsvector::text as v', [literal]);
  let used = process.cpuUsage(before);
  piecesCpu += used.user + used.system;
  before = process.cpuUsage();
  const [expected] = await execLarge<{ v: string }>(em, `select to_tsvector('english', ?)::text as v`, [text]);
  used = process.cpuUsage(before);
  postgresCpu += used.user + used.system;
  if (built === null) fallback++;
  else if (built[0]!.v === expected!.v) equal++;
  else differ.push(i);
}
// What the vectors hold: the memory freed when they go (nothing else may keep a reference).
const held = countsOf(holder.vectors!);
const kept = await memory();
holder.vectors = null;
const freed = await memory();
const MiB = 1024 * 1024;
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { encoding: 'utf8' }).trim()
  ? ' (src modified)'
  : '';
const report = [
  `commit ${commit}${dirty}, Node ${process.version}, embedded PGlite`,
  `${texts.length} texts (${site.length} site articles, ${golden.length} golden files), first ${chars} characters`,
  `equal: ${equal}, left to to_tsvector: ${fallback}, different: ${differ.length}${differ.length ? ` (${differ.slice(0, 10).join(', ')})` : ''}`,
  `remembered: ${held.pieces} pieces, ${held.lexemes} lexemes; dropping them frees ${((kept.heap - freed.heap) / MiB).toFixed(1)} MiB of heap and ${((kept.arrays - freed.arrays) / MiB).toFixed(1)} MiB of typed arrays (the process grew by ${((kept.heap - before.heap) / MiB).toFixed(1)} and ${((kept.arrays - before.arrays) / MiB).toFixed(1)} MiB while assembling)`,
  ...(values['skip-timing']
    ? []
    : [
        `CPU ms per text, this process (PGlite's thread included): pieces + cast ${(piecesCpu / 1000 / texts.length).toFixed(2)}, to_tsvector ${(postgresCpu / 1000 / texts.length).toFixed(2)}`,
      ]),
].join('\n');
process.stdout.write(`${report}\n`);
if (values.out) fs.writeFileSync(path.join(RESULTS_DIR, `${values.out}.md`), `${report}\n`);
await orm.close(true);
await embedded.close();
process.exit(differ.length > 0 ? 1 : 0);
