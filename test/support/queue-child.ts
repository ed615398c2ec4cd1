// A second process on the job queue, for the queue's multi-process tests:
//   node --import tsx test/support/queue-child.ts <database url> <owner> work <holdMs>
//     runs `test.job` jobs (holding each for holdMs, then completing it) until SIGTERM;
//   node --import tsx test/support/queue-child.ts <database url> <owner> die <count>
//     claims `count` jobs, prints "claimed <n>", and exits without finishing them (a crash).
import { createOrm } from '../../src/db/orm.js';
import { createLogger } from '../../src/logger.js';
import { JobQueue } from '../../src/workers/queue/job-queue.js';
import { JobWorker, sleep } from '../../src/workers/queue/job-worker.js';
import { TEST_KIND } from './queue-kind.js';

const [url, owner, mode, arg] = process.argv.slice(2);
const orm = await createOrm({ connection: url!, poolSize: 4 });
const queue = new JobQueue(orm, [TEST_KIND]);
if (mode === 'die') {
  const claimed = await queue.claim(TEST_KIND.kind, owner!, Number(arg));
  process.stdout.write(`claimed ${claimed.length}\n`);
  process.exit(0);
}
const stop = new AbortController();
process.on('SIGTERM', () => stop.abort());
const logger = createLogger({ logLevel: 'warn' }, { role: 'worker' });
const worker = new JobWorker(
  queue,
  [
    {
      spec: TEST_KIND,
      concurrency: 8,
      handler: async (job) => {
        await sleep(Number(arg));
        await queue.transaction((em) => queue.complete(em, job));
      },
    },
  ],
  logger,
);
process.stdout.write('ready\n');
await worker.run(owner!, stop.signal, 5000);
await orm.close(true);
process.exit(0);
