// A worker thread of bench/convert-threads.bench.ts: converts the pages it is given and
// posts the times back.
import { parentPort, workerData } from 'node:worker_threads';
import { convertPages, loadArticles } from './convert-pages.js';

const { siteDir, count, rounds } = (workerData as { data: { siteDir: string; count: number; rounds: number } }).data;
parentPort!.postMessage(convertPages(loadArticles(siteDir, count), rounds));
