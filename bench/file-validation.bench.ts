/**
 * File validation benchmark (issue 15): time and peak memory of validating uploaded JSON files
 * as the Files API's complete step does, on two files just under the 200 MB limit:
 *
 * - `context.json`: an array of records with nested objects, numbers, escapes and non-ASCII text;
 * - `batch.json`: a batch file of 10,000 items, each carrying ~20 KB of metadata.
 *
 * Each run is a fresh child process, so its peak RSS (VmHWM, /proc) is its own. Runs:
 * `context` (validateJsonFile), `batch` (readBatchFile), `json-parse` (JSON.parse of the whole
 * context file: what not streaming costs), and, for comparison, the tokenizers of `stream-json`
 * 1.9.1 (installed as a dependency of minio and crawlee) and, when installed
 * (`npm i --no-save @streamparser/json@0.0.26`), `@streamparser/json`. Run by hand, never by
 * `npm test`:
 *
 *   node --import tsx bench/file-validation.bench.ts [--mb 199] [--repeat 3] [--dir /tmp/x] [--out NAME]
 *
 * Writes bench/results/NAME.json (git-ignored) and NAME.md. See docs/benchmarks.md, "File validation".
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readBatchFile } from '../src/domain/files/batch-file.js';
import { validateJsonFile } from '../src/domain/files/json-validation.js';
import { RESULTS_DIR } from './lib/paths.js';
import { writeJsonArrayFile } from './lib/json-array-file.js';

const RUNS = ['context', 'batch', 'json-parse', 'streamparser', 'stream-json'] as const;
type Run = (typeof RUNS)[number];

interface Measured {
  run: Run;
  file: string;
  bytes: number;
  ms: number;
  peakRssMb: number;
  startRssMb: number;
  result: string;
}

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '199' },
    repeat: { type: 'string', default: '3' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'gleaner-file-bench') },
    out: { type: 'string', default: 'file-validation' },
    child: { type: 'string' },
    file: { type: 'string' },
  },
});

if (values.child) {
  process.stdout.write(`${JSON.stringify(await measure(values.child as Run, values.file!))}\n`);
} else {
  await main();
}

async function main(): Promise<void> {
  const target = Number(values.mb) * 1024 * 1024;
  await fs.mkdir(values.dir!, { recursive: true });
  const context = path.join(values.dir!, `context-${values.mb}.json`);
  const batch = path.join(values.dir!, `batch-${values.mb}.json`);
  if (!existsSync(context)) await writeJsonArrayFile(context, target, contextRecord);
  if (!existsSync(batch)) await writeJsonArrayFile(batch, target, batchItem);
  const results: Measured[] = [];
  for (let round = 0; round < Number(values.repeat); round++) {
    for (const run of RUNS) {
      if ((run === 'streamparser' || run === 'stream-json') && !(await installed(run))) continue;
      const output = execFileSync(
        process.execPath,
        ['--import', 'tsx', import.meta.filename, '--child', run, '--file', run === 'batch' ? batch : context],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      );
      const measured = JSON.parse(output.trim().split('\n').pop()!) as Measured;
      results.push(measured);
      console.log(
        `${run.padEnd(13)} ${String(measured.ms).padStart(6)} ms  peak RSS ${measured.peakRssMb} MB  ${measured.result}`,
      );
    }
  }
  await fs.mkdir(RESULTS_DIR, { recursive: true });
  await fs.writeFile(path.join(RESULTS_DIR, `${values.out}.json`), JSON.stringify(results, null, 2));
  await fs.writeFile(path.join(RESULTS_DIR, `${values.out}.md`), report(results));
}

async function measure(run: Run, file: string): Promise<Measured> {
  const startRssMb = vmMb('VmRSS');
  const started = performance.now();
  let result: string;
  const limits = { maxDepth: 32 };
  if (run === 'context') result = JSON.stringify(await validateJsonFile(createReadStream(file), limits));
  else if (run === 'batch') {
    const { format, items, bytes } = await readBatchFile(createReadStream(file), limits);
    result = JSON.stringify({ format, items, bytes });
  } else if (run === 'json-parse') {
    result = `${(JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length} records`;
  } else result = await libraryTokens(run, file);
  return {
    run,
    file: path.basename(file),
    bytes: (await fs.stat(file)).size,
    ms: Math.round(performance.now() - started),
    peakRssMb: vmMb('VmHWM'),
    startRssMb,
    result,
  };
}

/** Syntax check by a library's tokenizer, the part comparable to ours (no values built). */
async function libraryTokens(run: Run, file: string): Promise<string> {
  let tokens = 0;
  if (run === 'streamparser') {
    type Tokenizer = { onToken: () => void; write(chunk: Buffer): void; end(): void };
    const { Tokenizer } = (await import(libraryName(run))) as { Tokenizer: new () => Tokenizer };
    const tokenizer = new Tokenizer();
    tokenizer.onToken = () => void tokens++;
    for await (const chunk of createReadStream(file)) tokenizer.write(chunk as Buffer);
    tokenizer.end();
  } else {
    const { parser } = ((await import(libraryName(run))) as { default: { parser(o: object): NodeJS.ReadWriteStream } })
      .default;
    const stream = createReadStream(file).pipe(parser({ packValues: false, streamValues: false, packKeys: false }));
    stream.on('data', () => void tokens++);
    await once(stream, 'end');
  }
  return `${tokens} tokens`;
}

function libraryName(run: Run): string {
  return run === 'streamparser' ? '@streamparser/json' : 'stream-json';
}

async function installed(run: Run): Promise<boolean> {
  return import(libraryName(run)).then(
    () => true,
    () => false,
  );
}

function vmMb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'));
  return Math.round(Number(match?.[1] ?? 0) / 1024);
}

function contextRecord(i: number): unknown {
  return {
    id: i,
    title: `Produit n° ${i} — “quoted” ✓ 日本語`,
    price: { amount: (i * 7.31) % 1000, currency: 'EUR', vat: 0.2, history: [1.5, -0.25, 3e-4, 12000] },
    tags: ['a', 'b\tc', 'line\nbreak', 'emoji 🚀'],
    active: i % 2 === 0,
    note: null,
    body: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4),
  };
}

function batchItem(i: number): unknown {
  if (i === 10_000) return null; // the most a batch holds
  const metadata: Record<string, string> = {};
  for (let k = 0; k < 40; k++) metadata[`key_${k}`] = `${k}:${'v'.repeat(497)}`;
  return { custom_id: `item-${i}`, url: `https://shop.example/products/${i}?ref=bench`, metadata };
}

function report(results: Measured[]): string {
  const rows = RUNS.map((run) => results.filter((r) => r.run === run))
    .filter((runs) => runs.length > 0)
    .map((runs) => {
      const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
      const median = ms[Math.floor(ms.length / 2)]!;
      const first = runs[0]!;
      const mbPerS = Math.round(first.bytes / 1048576 / (median / 1000));
      return `| ${first.run} | ${first.file} | ${(first.bytes / 1048576).toFixed(1)} | ${median} (${ms.join(', ')}) | ${mbPerS} | ${Math.max(...runs.map((r) => r.peakRssMb))} | ${first.startRssMb} | ${first.result} |`;
    });
  return [
    `# File validation (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`,
    '',
    '| run | file | MB | ms, median (all) | MB/s | peak RSS MB | RSS at start MB | result |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
