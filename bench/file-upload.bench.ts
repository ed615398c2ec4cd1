/**
 * Files API end to end at the size limit (issue 15): the real service (`npm start`, embedded
 * store and database) receives a PUT of a file just under 200 MB through its signed upload URL,
 * then validates it at `POST /v1/files/{id}/complete`. Measures the service process's resident
 * memory (VmRSS sampled every 50 ms, and VmHWM) before, during the upload and during complete,
 * for a `context` file (an array of records) and a `batch` file (10,000 items with ~20 KB of
 * metadata each), on a service started once before (as any deployment after its first start).
 * VmHWM is the peak since that start. The client streams the file from disk, so nothing is held whole on either side.
 * Run by hand, never by `npm test`:
 *
 *   node --import tsx bench/file-upload.bench.ts [--mb 199] [--dir /tmp/x] [--out NAME]
 *
 * Writes bench/results/NAME.md. See docs/benchmarks.md, "Files".
 */
import { createReadStream, existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { readMemory, sampleMemory } from './lib/measure/proc-stats.js';
import { RESULTS_DIR } from './lib/paths.js';
import { startRestartedService, type ServiceProcess } from './lib/service-process.js';
import { writeJsonArrayFile } from './lib/json-array-file.js';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '199' },
    dir: { type: 'string', default: path.join(os.tmpdir(), 'gleaner-file-bench') },
    out: { type: 'string', default: 'file-upload' },
  },
});

interface Row {
  purpose: 'context' | 'batch';
  mb: number;
  rssBeforeMb: number;
  uploadMs: number;
  uploadPeakMb: number;
  completeMs: number;
  completePeakMb: number;
  hwmMb: number;
  result: string;
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

const target = Number(values.mb) * MB;
await fs.mkdir(values.dir!, { recursive: true });
const files = {
  context: path.join(values.dir!, `upload-context-${values.mb}.json`),
  batch: path.join(values.dir!, `upload-batch-${values.mb}.json`),
};
if (!existsSync(files.context)) await writeJsonArrayFile(files.context, target, contextRecord);
if (!existsSync(files.batch)) await writeJsonArrayFile(files.batch, target, batchItem);

// Restarted once: the first boot's database initialisation grows memory that a deployment's
// later starts do not have, and VmHWM would show it.
const { service, removeDataDir } = await startRestartedService({ role: 'api', env: { LOG_LEVEL: 'warn' } });
const rows: Row[] = [];
try {
  for (const purpose of ['context', 'batch'] as const) rows.push(await measure(service, purpose, files[purpose]));
} finally {
  await service.stop();
  await removeDataDir();
}
const report = [
  `# Files: 200 MB upload and complete (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)})`,
  '',
  '| purpose | MB | RSS before | upload ms | peak RSS upload | complete ms | peak RSS complete | VmHWM | result |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.purpose} | ${r.mb} | ${r.rssBeforeMb} | ${r.uploadMs} | ${r.uploadPeakMb} | ${r.completeMs} | ${r.completePeakMb} | ${r.hwmMb} | ${r.result} |`,
  ),
  '',
].join('\n');
await fs.mkdir(RESULTS_DIR, { recursive: true });
await fs.writeFile(path.join(RESULTS_DIR, `${values.out}.md`), report);
console.log(report);

async function measure(svc: ServiceProcess, purpose: 'context' | 'batch', file: string): Promise<Row> {
  const api = (route: string, init: RequestInit = {}) =>
    fetch(`${svc.origin}${route}`, {
      ...init,
      headers: { authorization: `Bearer ${svc.apiKey}`, 'content-type': 'application/json' },
    });
  const grant = (await (
    await api('/v1/files', { method: 'POST', body: JSON.stringify({ filename: path.basename(file), purpose }) })
  ).json()) as { id: string; upload_url: string; upload_headers: Record<string, string> };
  const size = (await fs.stat(file)).size;
  const rssBefore = readMemory(svc.pid)!.rssBytes;

  let sampler = sampleMemory([svc.pid], 50);
  let started = Date.now();
  const put = await fetch(grant.upload_url, {
    method: 'PUT',
    headers: { ...grant.upload_headers, 'content-length': String(size) },
    body: Readable.toWeb(createReadStream(file, { highWaterMark: MB })) as ReadableStream<Uint8Array>,
    duplex: 'half',
  } as RequestInit);
  await put.arrayBuffer();
  const uploadMs = Date.now() - started;
  const upload = sampler.stop();
  if (put.status !== 200) throw new Error(`upload answered ${put.status}`);

  sampler = sampleMemory([svc.pid], 50);
  started = Date.now();
  const done = await api(`/v1/files/${grant.id}/complete`, { method: 'POST' });
  const completed = (await done.json()) as { status?: string; bytes?: number; items_count?: number; code?: string };
  const completeMs = Date.now() - started;
  const complete = sampler.stop();
  const result =
    done.status === 200
      ? `${completed.status}, ${completed.bytes} bytes${completed.items_count ? `, ${completed.items_count} items` : ''}`
      : `${done.status} ${completed.code}`;
  await api(`/v1/files/${grant.id}`, { method: 'DELETE' });
  return {
    purpose,
    mb: Math.round((size / MB) * 10) / 10,
    rssBeforeMb: mb(rssBefore),
    uploadMs,
    uploadPeakMb: mb(upload.peakRssBytes),
    completeMs,
    completePeakMb: mb(complete.peakRssBytes),
    hwmMb: mb(readMemory(svc.pid)!.hwmBytes),
    result,
  };
}

function contextRecord(i: number): unknown {
  return {
    id: i,
    title: `Produit n° ${i} — “quoted” ✓ 日本語`,
    price: { amount: (i * 7.31) % 1000, currency: 'EUR', history: [1.5, -0.25, 3e-4] },
    tags: ['a', 'b\tc', 'line\nbreak', 'emoji 🚀'],
    body: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4),
  };
}

function batchItem(i: number): unknown {
  if (i === 10_000) return null; // the most a batch holds
  const metadata: Record<string, string> = {};
  for (let k = 0; k < 40; k++) metadata[`key_${k}`] = `${k}:${'v'.repeat(497)}`;
  return { custom_id: `item-${i}`, url: `https://shop.example/products/${i}?ref=bench`, metadata };
}
