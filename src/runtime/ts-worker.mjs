// Entry of every worker thread (the embedded database host, Bree jobs): Node 20 cannot load
// TypeScript in a worker by itself, so this plain module registers tsx first, then imports
// the real entry named in workerData.entry (a file URL or absolute path).
import { workerData } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const entry = workerData?.entry;
if (typeof entry !== 'string') throw new Error('ts-worker: workerData.entry must name the module to run');
await import(entry.startsWith('file:') ? entry : pathToFileURL(entry).href);
