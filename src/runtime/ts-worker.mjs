// Entry of every worker thread that runs a TypeScript module (Bree jobs, the converters):
// Node 20 cannot load TypeScript in a worker by itself, so for a `.ts` entry this plain module
// registers tsx first (under tsx and vitest); the compiled build `npm start` runs hands it `.js`
// entries, which load without tsx (tsx costs a thread ~25 MB). Then it imports the entry named
// in workerData.entry (a file URL or absolute path).
import { workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';

const entry = workerData?.entry;
if (typeof entry !== 'string') throw new Error('ts-worker: workerData.entry must name the module to run');
if (/\.ts$/.test(new URL(entry, 'file:///').pathname)) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(entry.startsWith('file:') ? entry : pathToFileURL(entry).href);
